import assert from "node:assert/strict";
import { diskContext, fixture, LOCKFILES, memoryContext } from "./_fixtures.ts";
import { logicalLines, parseRequirements } from "./requirements.ts";

function parse(text: string, extra: Record<string, string> = {}) {
  const ctx = memoryContext({ "/proj/requirements.txt": text, ...extra });
  return parseRequirements("/proj/requirements.txt", text, ctx).entries;
}

Deno.test("logical lines join backslash continuations and keep the first line number", () => {
  const lines = logicalLines("a==1 \\\n    --hash=sha256:x \\\n    --hash=sha256:y\n# c\nb==2\n");
  assert.deepEqual(lines.map((l) => [l.line, l.comment]), [[1, false], [4, true], [5, false], [
    6,
    false,
  ]]);
  assert.match(lines[0].text, /^a==1 +--hash=sha256:x +--hash=sha256:y$/);
});

Deno.test("exact pins, ranges, extras, markers and hashes", () => {
  const entries = parse([
    "Django==4.2.1 --hash=sha256:aa \\",
    "    --hash=sha256:bb",
    "psycopg[c]==3.2.1 ; python_version >= '3.8'",
    'mypy==1.19.1; platform_python_implementation=="CPython"',
    "requests>=2.31,<3  # a comment",
    "zope.sqlalchemy===3.1",
    "PyJWT[crypto]",
  ].join("\n"));
  assert.deepEqual(
    entries.map((e) => [e.name, e.version, e.pinned, e.specifier, e.line]),
    [
      ["django", "4.2.1", true, null, 1],
      ["psycopg", "3.2.1", true, null, 3],
      ["mypy", "1.19.1", true, null, 4],
      ["requests", null, false, ">=2.31,<3", 5],
      ["zope-sqlalchemy", "3.1", true, null, 6],
      ["pyjwt", null, false, null, 7],
    ],
  );
  assert.ok(entries.every((e) => e.direct === true && e.file === "requirements.txt"));
});

Deno.test("global options are ignored; -e, URLs and paths are unpinned sources", () => {
  const entries = parse([
    "-i https://pypi.org/simple",
    "--extra-index-url https://example.org/simple",
    "--pre",
    "-e .",
    "-e git+https://github.com/org/tool.git@v1#egg=Tool_X",
    "https://files.example/pkgs/Foo_Bar-1.2.3-py3-none-any.whl",
    "./vendor/local-pkg",
    "named @ git+https://github.com/org/named.git@abc ; sys_platform == 'linux'",
    "file:///proj",
  ].join("\n"));
  assert.deepEqual(entries.map((e) => [e.name, e.version, e.pinned, e.source, e.local, e.line]), [
    ["tool-x", null, false, "git+https://github.com/org/tool.git@v1#egg=Tool_X", false, 5],
    [
      "foo-bar",
      "1.2.3",
      false,
      "https://files.example/pkgs/Foo_Bar-1.2.3-py3-none-any.whl",
      false,
      6,
    ],
    ["local-pkg", null, false, "path ./vendor/local-pkg", true, 7],
    ["named", null, false, "git+https://github.com/org/named.git@abc", false, 8],
  ]);
});

Deno.test("-r includes resolve against the including file; -c pins unpinned requirements", () => {
  const entries = parse("-r sub/base.txt\n-c constraints.txt\nflask\n", {
    "/proj/sub/base.txt": "-r ../more/extra.txt\nclick==8.1.7\n",
    "/proj/more/extra.txt": "itsdangerous>=2\n",
    "/proj/constraints.txt": "flask==3.0.0\nwerkzeug==3.0.1\n",
  });
  assert.deepEqual(
    entries.map((e) => [e.name, e.version, e.pinned, e.file, e.line]).sort(),
    [
      ["click", "8.1.7", true, "sub/base.txt", 2],
      ["flask", "3.0.0", true, "constraints.txt", 1],
      ["itsdangerous", null, false, "more/extra.txt", 1],
    ],
  );
});

function parseAll(text: string, extra: Record<string, string> = {}, env?: Record<string, string>) {
  const ctx = {
    ...memoryContext({ "/proj/requirements.txt": text, ...extra }),
    env: (n: string) => env?.[n],
  };
  return parseRequirements("/proj/requirements.txt", text, ctx);
}

Deno.test("an include cycle is read once; a missing include or constraint file is a warning", () => {
  const entries = parse("-r a.txt\nx==1\n", { "/proj/a.txt": "-r requirements.txt\ny==2\n" });
  assert.deepEqual(entries.map((e) => e.name).sort(), ["x", "y"]);
  const missing = parseAll("\n-r missing.txt\n-c absent.txt\nz==3\n");
  assert.deepEqual(missing.entries.map((e) => e.name), ["z"]);
  assert.deepEqual(missing.warnings, [
    "requirements.txt line 2: cannot read missing.txt",
    "requirements.txt line 3: cannot read absent.txt",
  ]);
});

Deno.test("an unreadable line is a warning naming file and line; the other lines are read", () => {
  const parsed = parseAll("ok==1\nnot a requirement!!\nlast==2\n");
  assert.deepEqual(parsed.entries.map((e) => e.name), ["ok", "last"]);
  assert.equal(parsed.warnings?.length, 1);
  assert.match(
    parsed.warnings![0],
    /^requirements.txt line 2: not a requirement: not a requirement!!$/,
  );
});

Deno.test("continuations join as pip joins them; ${VAR} expands from the environment", () => {
  const parsed = parseAll("bar == 4.5\\\n.6\n${PKG}==${VER}\nkeep${UNSET}==1\n", {}, {
    PKG: "flask",
    VER: "3.0.0",
  });
  assert.deepEqual(parsed.entries.map((e) => [e.name, e.version, e.line]), [
    ["bar", "4.5.6", 1],
    ["flask", "3.0.0", 3],
  ]);
  assert.equal(parsed.warnings?.length, 1);
  assert.match(parsed.warnings![0], /^requirements.txt line 4: /);
});

Deno.test("pip-compile '# via' annotations tell direct from transitive", () => {
  const entries = parse([
    "alembic==1.13.2 \\",
    "    --hash=sha256:aa",
    "    # via",
    "    #   -r requirements/main.in",
    "    #   alembic-postgresql-enum",
    "amqp==5.2.0",
    "    # via kombu",
    "app-dep==1.0",
    "    # via my-app (pyproject.toml)",
    "six==1.16.0",
    "    # via -c constraints.txt",
  ].join("\n"));
  assert.deepEqual(entries.map((e) => [e.name, e.direct]), [
    ["alembic", true],
    ["amqp", false],
    ["app-dep", true],
    ["six", false],
  ]);
});

Deno.test("celery test.txt: 22 requirements through 7 -r includes, 7 exact pins", () => {
  const dir = `${LOCKFILES}/requirements/celery__celery__requirements`;
  const path = `${dir}/test.txt`;
  const { entries } = parseRequirements(path, Deno.readTextFileSync(path), diskContext(dir));
  assert.equal(entries.length, 22);
  assert.deepEqual(
    entries.filter((e) => e.pinned).map((e) => `${e.name}==${e.version}`).sort(),
    [
      "google-cloud-firestore==2.23.0",
      "grpcio==1.78.0",
      "mypy==1.19.1",
      "pytest-click==1.1.0",
      "pytest-order==1.4.0",
      "pytest-timeout==2.4.0",
      "pytest==9.0.3",
    ],
  );
  assert.equal(entries.filter((e) => e.name === "kombu").length, 3);
  assert.deepEqual(
    entries.filter((e) => e.name === "pydantic").map((e) => [e.file, e.line, e.specifier]),
    [["extras/pydantic.txt", 1, ">=2.4"], ["extras/pydantic.txt", 2, ">=2.12.0a1"]],
  );
  assert.deepEqual(
    entries.filter((e) => e.file === "extras/azureblockblob.txt").map((e) => e.name),
    ["azure-storage-blob", "azure-identity"],
  );
  assert.ok(entries.every((e) => e.direct === true));
});

Deno.test("warehouse main.txt: 166 hashed pins, 76 direct by '# via -r'", () => {
  const text = fixture("requirements/pypi__warehouse__main.txt");
  const { entries } = parseRequirements("/w/requirements/main.txt", text, memoryContext({}, "/w"));
  assert.equal(entries.length, 166);
  assert.ok(entries.every((e) => e.pinned && e.version));
  assert.equal(entries.filter((e) => e.direct).length, 76);
  const setuptools = entries.find((e) => e.name === "setuptools")!;
  assert.equal(setuptools.version, "70.1.1");
  assert.equal(text.split("\n")[setuptools.line - 1], "setuptools==70.1.1 \\");
  assert.ok(entries.some((e) => e.name === "zope-sqlalchemy"));
});
