import assert from "node:assert/strict";
import {
  diffDependencies,
  pinnedVersion,
  projectName,
  requirementName,
  runtimeDependencies,
  simulateEdit,
} from "./pyproject.ts";
import { ClientError } from "./exit_codes.ts";
import { expectedRuntimeNames, FIXTURES } from "./_testing.ts";

Deno.test("runtimeDependencies() maps normalised names to raw [project] specifiers", () => {
  const deps = runtimeDependencies(`[project]
name = "demo"
dependencies = ["Requests>=2.31", "PyYAML[extra] (>=6.0.1)", "poetry-core @ git+https://x/y.git", "typing_extensions; python_version < '3.11'"]
[project.optional-dependencies]
dev = ["pytest"]
`);
  assert.deepEqual([...deps], [
    ["requests", "Requests>=2.31"],
    ["pyyaml", "PyYAML[extra] (>=6.0.1)"],
    ["poetry-core", "poetry-core @ git+https://x/y.git"],
    ["typing-extensions", "typing_extensions; python_version < '3.11'"],
  ]);
});

Deno.test("runtimeDependencies() keeps the first occurrence of a name listed twice", () => {
  const deps = runtimeDependencies(`[project]
dependencies = ["numpy>=1.0; python_version<'3.12'", "NumPy>=2.0; python_version>='3.12'"]`);
  assert.deepEqual([...deps], [["numpy", "numpy>=1.0; python_version<'3.12'"]]);
});

Deno.test("runtimeDependencies() merges Poetry's table minus python, [project] winning", () => {
  const deps = runtimeDependencies(`[project]
dependencies = ["rich>=13"]
[tool.poetry.dependencies]
python = "^3.9"
rich = "^12"
Pygments = "^2.13.0"
ipywidgets = { version = ">=7.5.1,<9", optional = true }
mylib = { git = "https://example.com/mylib.git" }
`);
  assert.deepEqual([...deps], [
    ["rich", "rich>=13"],
    ["pygments", "^2.13.0"],
    ["ipywidgets", ">=7.5.1,<9"],
    ["mylib", "git+https://example.com/mylib.git"],
  ]);
});

Deno.test("runtimeDependencies() reports a TOML syntax error as a one-line bad_input error", () => {
  assert.throws(() => runtimeDependencies("[project\nx"), (e: unknown) => {
    assert.ok(e instanceof ClientError);
    assert.equal(e.code, "bad_input");
    assert.ok(!e.message.includes("\n"));
    return true;
  });
});

Deno.test("diffDependencies() returns added-or-changed and removed names", () => {
  const before = new Map([["a", "a>=1"], ["b", "b"], ["c", "c==1"]]);
  const after = new Map([["a", "a>=2"], ["b", "b"], ["d", "d"]]);
  const [added, removed] = diffDependencies(before, after);
  assert.deepEqual([...added], [["a", "a>=2"], ["d", "d"]]);
  assert.deepEqual([...removed], ["c"]);
});

Deno.test("pinnedVersion() extracts the version to evaluate", async (t) => {
  const table: Array<[string, string | null]> = [
    ["requests==2.31.0", "2.31.0"],
    ["requests===2.31.0", "2.31.0"],
    ["pyyaml>=5.0", "5.0"],
    ["pyyaml>=5.0,<7", "5.0"],
    ["pyyaml<7,>=5.0", "5.0"],
    ["attrs~=23.1", "23.1"],
    ["build (>=1.2.1,<2.0.0)", "1.2.1"],
    ["requests[socks]==2.8.1; python_version<'3'", "2.8.1"],
    ["requests", null],
    ["requests<3", null],
    ["requests==2.*", null],
    ["foo @ https://example.com/foo.whl", null],
    ["^2.13.0", "2.13.0"],
    ["~1.2", "1.2"],
    [">=7.5.1,<9", "7.5.1"],
    ["1.4.2", "1.4.2"],
    ["*", null],
    ["git+https://x/y.git", null],
  ];
  for (const [spec, want] of table) {
    await t.step(`${spec} → ${want}`, () => assert.equal(pinnedVersion(spec), want));
  }
});

Deno.test("requirementName() reads names from strict, loose and odd lines", () => {
  assert.equal(requirementName("x===1.0"), "x");
  assert.equal(requirementName("Foo_Bar>=1"), "Foo_Bar");
  assert.equal(requirementName("pkg @ file:///tmp/pkg"), "pkg");
});

Deno.test("simulateEdit() applies Write, Edit and MultiEdit like Claude Code", () => {
  assert.equal(simulateEdit("old", "Write", { file_path: "/p", content: "new" }), "new");
  assert.equal(simulateEdit(null, "Write", { file_path: "/p", content: "x" }), "x");
  assert.equal(
    simulateEdit("a b a", "Edit", { file_path: "/p", old_string: "a", new_string: "c" }),
    "c b a",
  );
  assert.equal(
    simulateEdit("a b a", "Edit", { old_string: "a", new_string: "$&c", replace_all: true }),
    "$&c b $&c",
  );
  assert.equal(simulateEdit("a", "Edit", { old_string: "zzz", new_string: "c" }), null);
  assert.equal(
    simulateEdit("x y", "MultiEdit", {
      edits: [{ old_string: "x", new_string: "1" }, { old_string: "y", new_string: "2" }],
    }),
    "1 2",
  );
  assert.equal(
    simulateEdit("x", "MultiEdit", { edits: [{ old_string: "q", new_string: "1" }] }),
    null,
  );
  assert.equal(simulateEdit("x", "Read", { file_path: "/p" }), null);
});

Deno.test("projectName() prefers [project].name, then Poetry's, then the directory", () => {
  assert.equal(projectName(`[project]\nname = "demo"`, "dir"), "demo");
  assert.equal(projectName(`[tool.poetry]\nname = "poet"`, "dir"), "poet");
  assert.equal(projectName(`[project]`, "dir"), "dir");
  assert.equal(projectName("not toml [", "dir"), "dir");
  assert.equal(projectName(null, "dir"), "dir");
});

Deno.test("every fixture pyproject.toml yields exactly the runtime deps a TOML reader finds", async (t) => {
  let files = 0;
  for await (const entry of Deno.readDir(FIXTURES)) {
    if (!entry.name.endsWith(".toml")) continue;
    files++;
    await t.step(entry.name, async () => {
      const text = await Deno.readTextFile(new URL(entry.name, FIXTURES));
      const deps = runtimeDependencies(text);
      assert.deepEqual(new Set(deps.keys()), expectedRuntimeNames(text));
    });
  }
  assert.ok(files >= 20, `expected the fixture set, found ${files} files`);
});
