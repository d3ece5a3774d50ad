import assert from "node:assert/strict";
import { compileRegistry } from "./compile.ts";
import { locateErrors, parseYaml } from "./yaml.ts";

Deno.test("YAML syntax errors carry their line and column", () => {
  const parsed = parseYaml("packages: [\n");
  assert.ok(!parsed.ok);
  assert.deepEqual(
    { path: parsed.errors[0].path, line: parsed.errors[0].line, column: parsed.errors[0].column },
    { path: "line 2, column 1", line: 2, column: 1 },
  );
  assert.match(parsed.errors[0].message, /^YAML syntax error: /);
});

Deno.test("schema errors of a YAML document point at the offending node", async () => {
  const compiled = await compileRegistry(
    "policies:\n  cve_threshold: 99\npackages:\n  - status: banned\n",
  );
  assert.ok(!compiled.ok);
  assert.deepEqual(
    compiled.errors.map((e) => [e.path, e.line, e.column]),
    [["policies.cve_threshold", 2, 18], ["packages[0].name", 4, 5]],
  );
  assert.deepEqual(locateErrors("{", [{ path: "x", message: "m" }]), [{ path: "x", message: "m" }]);
});
