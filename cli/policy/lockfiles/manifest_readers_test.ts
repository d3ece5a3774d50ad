import assert from "node:assert/strict";
import { join } from "node:path";
import { manifestFormatByName, prepareReaders, readManifest } from "./manifest_readers.ts";
import { discoverFiles, formatByContent, formatByName } from "./mod.ts";

const names = (format: Parameters<typeof readManifest>[0], text: string) => {
  const read = readManifest(format, text, "f");
  return { got: read.declared.map((d) => `${d.name}@${d.line}`), warnings: read.warnings };
};

Deno.test("dispatch by file name; setup.py is no requirements file; pdm.lock is not uv.lock", () => {
  const cases: Array<[string, string | null]> = [
    ["a/setup.py", "setup.py"],
    ["setup.cfg", "setup.cfg"],
    ["Pipfile", "Pipfile"],
    ["tox.ini", "tox.ini"],
    ["environment.yaml", "environment.yml"],
    ["tools/run.py", "script"],
    ["pyproject.toml", "pyproject.toml"],
    ["Pipfile.lock", null],
  ];
  for (const [path, format] of cases) assert.equal(manifestFormatByName(path), format, path);
  assert.equal(formatByName("setup.py"), "setup.py");
  assert.equal(formatByName("pdm.lock"), "pdm.lock");
  const pdm = `[metadata]\nlock_version = "4.4"\ncontent_hash = "sha256:x"\n\n[[package]]\n` +
    `name = "a"\nversion = "1"\n`;
  assert.equal(formatByContent(pdm), "pdm.lock");
});

Deno.test("pdm.lock is discovered; manifests only without lock or requirements files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "setup.py"), "setup()\n");
    await Deno.writeTextFile(join(dir, "Pipfile"), "[packages]\n");
    assert.deepEqual(discoverFiles(dir).map((p) => p.slice(dir.length + 1)), [
      "setup.py",
      "Pipfile",
    ]);
    await Deno.writeTextFile(join(dir, "pdm.lock"), "");
    assert.deepEqual(discoverFiles(dir).map((p) => p.slice(dir.length + 1)), ["pdm.lock"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setup.py: literal lists and tuples, concatenation, comments, dict keys; the rest warns", () => {
  const text = [
    "REQS = ['not-read']",
    "# install_requires=['commented']",
    "setup(",
    "    install_requires=[  # comment",
    "        'a>=1',",
    '        "b" "==2",',
    "        # 'c',",
    "    ],",
    "    setup_requires=('d',),",
    "    tests_require=REQS,",
    "    **{'extras_require': {'x': ['e'], \"y\": ()}},",
    ")",
  ].join("\n");
  const { got, warnings } = names("setup.py", text);
  assert.deepEqual(got, ["a@5", "b@6", "d@9", "e@11"]);
  assert.deepEqual(warnings, ["f line 10: tests_require is not a literal list; not read"]);
});

Deno.test("setup.cfg, tox.ini, Pipfile and PEP 723 blocks", () => {
  const cfg = "[options]\ninstall_requires =\n  a>=1\n  ; comment\n  b ; python_version<'3.9'\n" +
    "[options.extras_require]\ntest = c\n";
  assert.deepEqual(names("setup.cfg", cfg).got, ["a@3", "b@5", "c@7"]);
  const tox = "[testenv]\ndeps =\n  py311,py312: a==1\n  !py38: b\n  -rreq.txt\n  {env:X}\n" +
    "[testenv:lint]\ndeps = c\n[other]\ndeps = d\n";
  const toxRead = names("tox.ini", tox);
  assert.deepEqual(toxRead.got, ["a@3", "b@4", "c@8"]);
  assert.deepEqual(toxRead.warnings, ["f line 6: a tox substitution is not read: {env:X}"]);
  const pipfile = '[packages]\n"A.b" = "*"\nc = {version = ">=2"}\n[scripts]\nx = "y"\n';
  assert.deepEqual(names("Pipfile", pipfile).got, ["a-b@2", "c@3"]);
  const script = "# /// script\n# dependencies = [\n#   'a<3',\n#   \"b\",\n# ]\n# ///\n" +
    "# /// other\n# dependencies = ['c']\n# ///\n";
  assert.deepEqual(names("script", script).got, ["a@3", "b@4"]);
  assert.deepEqual(names("script", "print('no block')\n").got, []);
});

Deno.test("environment.yml: the pip list, once the YAML reader is loaded", async () => {
  await prepareReaders(["x/environment.yml"]);
  const text = "dependencies:\n  - numpy\n  - pip:\n    - a==1\n    - -e .\n    - 'b>=2'\n";
  assert.deepEqual(names("environment.yml", text).got, ["a@4", "b@6"]);
});
