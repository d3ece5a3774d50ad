import assert from "node:assert/strict";
import { join } from "node:path";
import { exitCodeFor } from "../exit_codes.ts";
import { diskContext, fixture } from "./_fixtures.ts";
import { discoverFiles, formatByContent, formatByName, loadLockFile } from "./mod.ts";

async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "policy-lockfiles-" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

Deno.test("formats by file name, else by content", () => {
  const table: Array<[string, string | null]> = [
    ["x/uv.lock", "uv.lock"],
    ["poetry.lock", "poetry.lock"],
    ["pylock.toml", "pylock.toml"],
    ["pylock.dev.toml", "pylock.toml"],
    ["Pipfile.lock", "Pipfile.lock"],
    ["pyproject.toml", "pyproject.toml"],
    ["requirements-dev.txt", "requirements"],
    ["main.in", "requirements"],
    ["deps.lock", null],
  ];
  for (const [name, format] of table) assert.equal(formatByName(name), format, name);
  assert.equal(formatByContent(fixture("uv/pydantic__pydantic__uv.lock")), "uv.lock");
  assert.equal(
    formatByContent(fixture("poetry/python-poetry__poetry__poetry.lock")),
    "poetry.lock",
  );
  assert.equal(formatByContent(fixture("pylock/Comfy-Org__comfy-cli__pylock.toml")), "pylock.toml");
  assert.equal(formatByContent(fixture("pipfile/pypa__pipenv__Pipfile.lock")), "Pipfile.lock");
  assert.equal(formatByContent("requests==2.31.0\n"), "requirements");
});

Deno.test("discovery: lock and requirements files; pyproject.toml only without them", async () => {
  const dir = await project({
    "pyproject.toml": `[project]\nname = "demo"\ndependencies = ["requests"]\n`,
    "uv.lock": "version = 1\n",
    "pylock.ci.toml": `lock-version = "1.0"\n`,
    "requirements-dev.txt": "pytest==8.0.0\n",
    "requirements/prod.txt": "flask==3.0.0\n",
    "requirements/prod.in": "flask\n",
    "notes.txt": "not a requirements file\n",
  });
  const alone = await project({ "pyproject.toml": `[project]\nname = "x"\n` });
  const empty = await Deno.makeTempDir();
  try {
    assert.deepEqual(discoverFiles(dir).map((p) => p.slice(dir.length + 1)), [
      "pylock.ci.toml",
      "requirements-dev.txt",
      "uv.lock",
      "requirements/prod.txt",
    ]);
    assert.deepEqual(discoverFiles(alone), [join(alone, "pyproject.toml")]);
    assert.throws(() => discoverFiles(empty), (e: Error) => exitCodeFor(e) === 66);
  } finally {
    for (const d of [dir, alone, empty]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("direct: from the companion pyproject (all groups), Pipfile, .in; else the lock's root", async () => {
  const dir = await project({
    "a/pyproject.toml": `[project]
name = "Demo_App"
dependencies = ["Requests>=2"]
optional-dependencies.cli = ["click"]

[dependency-groups]
dev = ["pytest", { include-group = "lint" }]
lint = ["ruff"]

[tool.poetry.group.docs.dependencies]
Sphinx = "^7"
`,
    "a/poetry.lock": `[[package]]
name = "requests"
version = "2.31.0"

[[package]]
name = "urllib3"
version = "2.2.0"

[[package]]
name = "sphinx"
version = "7.2.0"

[[package]]
name = "demo-app"
version = "0.1.0"

[package.source]
type = "directory"
url = "."
`,
    "b/Pipfile": `[packages]\nFlask = "*"\n\n[dev-packages]\npytest = "*"\n\n[scripts]\nx = "y"\n`,
    "b/Pipfile.lock": JSON.stringify({
      _meta: {},
      default: { flask: { version: "==3.0.0" }, werkzeug: { version: "==3.0.1" } },
      develop: { pytest: { version: "==8.0.0" } },
    }),
    "c/uv.lock": `version = 1

[[package]]
name = "c"
version = "0.1.0"
source = { editable = "." }
dependencies = [{ name = "httpx" }]

[[package]]
name = "httpx"
version = "0.27.0"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "anyio"
version = "4.4.0"
source = { registry = "https://pypi.org/simple" }
`,
  });
  try {
    const ctx = diskContext(dir);
    const direct = (path: string) =>
      Object.fromEntries(loadLockFile(join(dir, path), ctx).entries.map((e) => [e.name, e.direct]));
    assert.deepEqual(direct("a/poetry.lock"), { requests: true, urllib3: false, sphinx: true });
    assert.deepEqual(direct("b/Pipfile.lock"), { flask: true, werkzeug: false, pytest: true });
    assert.deepEqual(direct("c/uv.lock"), { httpx: true, anyio: false });
    const loaded = loadLockFile(join(dir, "a/poetry.lock"), ctx);
    assert.equal(loaded.manifest, "a/pyproject.toml");
    assert.equal(loaded.format, "poetry.lock");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pyproject.toml as input: runtime dependencies, direct, located, exact pins marked", async () => {
  const dir = await project({
    "pyproject.toml": `[project]
name = "demo"
dependencies = [
  "requests==2.31.0",
  "flask>=3",
  "tool @ git+https://github.com/o/tool.git",
]
`,
  });
  try {
    const { entries, format } = loadLockFile(join(dir, "pyproject.toml"), diskContext(dir));
    assert.equal(format, "pyproject.toml");
    assert.deepEqual(
      entries.map((e) => [e.name, e.version, e.pinned, e.specifier, e.source, e.line, e.direct]),
      [
        ["requests", "2.31.0", true, null, null, 4, true],
        ["flask", "3", false, "flask>=3", null, 5, true],
        ["tool", null, false, null, "tool @ git+https://github.com/o/tool.git", 6, true],
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
