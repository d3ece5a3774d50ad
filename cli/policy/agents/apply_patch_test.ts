import assert from "node:assert/strict";
import { applyHunks, parsePatch, patchText } from "./apply_patch.ts";

const PYPROJECT = `[project]\nname = "demo"\ndependencies = [\n    "requests>=2.31",\n]\n`;

Deno.test("parsePatch() reads add, update (with move) and delete sections", () => {
  const ops = parsePatch(`*** Begin Patch
*** Add File: requirements-dev.txt
+pytest
+pycrypto
*** Update File: pyproject.toml
*** Move to: app/pyproject.toml
@@ dependencies = [
     "requests>=2.31",
+    "pycrypto==2.6.1",
 ]
*** Delete File: old.txt
*** End Patch`);
  assert.deepEqual(ops.map((o) => o.kind), ["add", "update", "delete"]);
  assert.deepEqual(ops[0], {
    kind: "add",
    path: "requirements-dev.txt",
    content: "pytest\npycrypto\n",
  });
  assert.equal(ops[1].kind === "update" && ops[1].moveTo, "app/pyproject.toml");
  const update = ops[1] as Extract<typeof ops[number], { kind: "update" }>;
  assert.equal(
    applyHunks(PYPROJECT, update.hunks),
    PYPROJECT.replace(`    "requests>=2.31",\n`, `    "requests>=2.31",\n    "pycrypto==2.6.1",\n`),
  );
});

Deno.test("applyHunks() matches like Codex (trailing whitespace) and refuses a missing context", () => {
  const [op] = parsePatch(`*** Begin Patch
*** Update File: pyproject.toml
@@
-    "requests>=2.31",   
+    "requests>=2.32",
*** End Patch`);
  const hunks = (op as Extract<typeof op, { kind: "update" }>).hunks;
  assert.match(applyHunks(PYPROJECT, hunks)!, /requests>=2\.32/);
  assert.equal(applyHunks("[project]\n", hunks), null);
});

Deno.test("patchText() finds the patch in a string or an argv", () => {
  const patch = "*** Begin Patch\n*** End Patch";
  assert.equal(patchText(`apply_patch <<'EOF'\n${patch}\nEOF`), patch);
  assert.equal(patchText(["apply_patch", patch]), patch);
  assert.equal(patchText("pip install x"), null);
});
