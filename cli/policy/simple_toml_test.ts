import assert from "node:assert/strict";
import { parse } from "smol-toml";
import { FIXTURES } from "./_testing.ts";
import { parseSimpleToml } from "./simple_toml.ts";

/** Texts in the simple subset: parseSimpleToml() must read each exactly as smol-toml does. */
const SIMPLE = [
  "",
  // What `uv init` writes, after `uv add requests`.
  '[project]\nname = "demo"\nversion = "0.1.0"\ndescription = "Add your description here"\n' +
  'readme = "README.md"\nrequires-python = ">=3.12"\ndependencies = [\n    "requests>=2.32.3",\n]\n',
  'name = "x"',
  '[project]\nname = "bench"\ndependencies = []\n',
  `[project]\nname = "bench"\ndependencies = ["a>=1.0", "b==2", 'c<3']\n`,
  '[project]\r\ndependencies = [\r\n  "a>=1", # first\r\n  # a comment line\r\n\r\n  "b",\r\n]\r\n',
  '[project]\ndependencies = [ ]\nrequires-python = ">=3.9"\nversion = "1.0"\n',
  "[build-system]\nrequires = ['hatchling']\nbuild-backend = 'hatchling.build'\n",
  '[project]\nname = "x"\n[project.optional-dependencies]\ndev = ["pytest"]\ndocs = [\n"sphinx",\n]\n',
  '[project.urls]\nHome = "https://example.org/#top"\n[project.scripts]\nx = "x:main"\n',
  '[tool.uv]\ndev-dependencies = ["ruff"]\n[dependency-groups]\ntest = ["pytest>=8"]\n',
  "[tool.black]\nline-length = 100\nskip = false\nratio = 0.5\n",
  '  # indented comment\n\t[project]   # header comment\n  name="x"#c\n',
  'a = ["x","y"]#c\nb = [\n]\n',
];

/** Texts outside it: parseSimpleToml() must return null and leave them to smol-toml. */
const NOT_SIMPLE = [
  '[project]\nauthors = [{ name = "x" }]\n',
  "[[tool.mypy.overrides]]\nmodule = 'x'\n",
  '[ project ]\nname = "x"\n',
  '["quoted"]\nx = 1\n',
  'a.b = "dotted"\n',
  '"quoted" = 1\n',
  'escaped = "a\\"b"\n',
  'multi = """x"""\n',
  "multi = '''x'''\n",
  'arr = ["""x"""]\n',
  "nums = [1, 2]\n",
  "nested = [['a']]\n",
  'mixed = ["a", 1]\n',
  "date = 2026-11-24\n",
  "exp = 1e3\n",
  "[project]\nname = 'x'\n[project]\nversion = '1'\n",
  "[tool.uv]\nx = 1\n[tool]\ny = 2\n",
  "[a]\nb = 1\n[a.b]\nc = 1\n",
  "[a]\nb = ['x']\n[a.b.c]\n",
  'dup = "a"\ndup = "b"\n',
  "__proto__ = 1\n",
  "[__proto__]\n",
  'a = ["x" "y"]\n',
  'a = ["x",,]\n',
  'a = ["x"\n',
  'a = "x" b = "y"\n',
  'a = "x"\rb = "y"\n',
  "[project]x = 1\n",
  "novalue =\n",
  "just words\n",
];

Deno.test("parseSimpleToml() reads the simple subset exactly as smol-toml does, and nothing else", () => {
  for (const text of SIMPLE) assert.deepEqual(parseSimpleToml(text), parse(text), text);
  // Outside it: null, and smol-toml reads or rejects the text.
  for (const text of NOT_SIMPLE) assert.equal(parseSimpleToml(text), null, text);
});

Deno.test("parseSimpleToml() on real pyproject.toml files and each of their tables: what it reads equals smol-toml's reading", async () => {
  let tables = 0;
  let taken = 0;
  for await (const entry of Deno.readDir(FIXTURES)) {
    if (!entry.name.endsWith(".toml")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, FIXTURES));
    // The whole file, then each table alone (the text from one header to the next).
    const parts = [text, ...text.split(/^(?=\[)/m)];
    for (const part of parts) {
      tables++;
      const simple = parseSimpleToml(part);
      if (simple === null) continue;
      taken++;
      assert.deepEqual(simple, parse(part), `${entry.name}: ${part.slice(0, 60)}`);
    }
  }
  assert.ok(taken >= 50, `only ${taken} of ${tables} were in the simple subset`);
});
