import assert from "node:assert/strict";
import { exitCodeFor } from "../exit_codes.ts";
import { fixture } from "./_fixtures.ts";
import { parsePoetryLock } from "./poetry.ts";
import { parsePylock } from "./pylock.ts";
import { parseUvLock } from "./uv.ts";

function lineOf(text: string, line: number): string {
  return text.split("\n")[line - 1];
}

Deno.test("uv.lock (pydantic): 112 entries less the editable project; git source unpinned", () => {
  const text = fixture("uv/pydantic__pydantic__uv.lock");
  const { entries, rootDirect } = parseUvLock(text, "uv.lock");
  assert.equal(entries.length, 111);
  assert.ok(!entries.some((e) => e.name === "pydantic"));
  const git = entries.filter((e) => !e.pinned);
  assert.deepEqual(git.map((e) => [e.name, e.version, e.source?.split("?")[0]]), [
    ["pydantic-extra-types", "2.10.0", "git+https://github.com/pydantic/pydantic-extra-types.git"],
  ]);
  for (const e of entries) {
    assert.equal(lineOf(text, e.line).replace(/_/g, "-").toLowerCase().includes(e.name), true);
  }
  assert.ok(rootDirect!.has("annotated-types") && rootDirect!.has("email-validator"));
  assert.ok(rootDirect!.has("pytest"), "dev-dependencies groups count as direct");
});

Deno.test("uv.lock (uv-fastapi-example): the virtual project is skipped, fastapi is its root dep", () => {
  const { entries, rootDirect } = parseUvLock(
    fixture("uv/astral-sh__uv-fastapi-example__uv.lock"),
    "uv.lock",
  );
  assert.equal(entries.length, 34);
  assert.ok(entries.every((e) => e.pinned && e.version));
  assert.deepEqual([...rootDirect!], ["fastapi"]);
});

Deno.test("uv.lock sources: registry pins, git/url unpinned, path/directory local, workspace members skipped", () => {
  const text = `version = 1
revision = 3
requires-python = ">=3.12"

[manifest]
members = ["app", "Lib_One"]

[[package]]
name = "app"
version = "0.1.0"
source = { virtual = "." }
dependencies = [{ name = "lib-one" }, { name = "Requests" }]

[[package]]
name = "lib-one"
version = "0.2.0"
source = { editable = "packages/lib-one" }
dependencies = [{ name = "tool" }]

[[package]]
name = "requests"
version = "2.32.3"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://x/requests-2.32.3.tar.gz", hash = "sha256:aa", size = 1, upload-time = "2024-05-29T15:37:49.536Z" }

[[package]]
name = "tool"
version = "1.0.0"
source = { git = "https://github.com/o/tool?rev=v1#abc" }

[[package]]
name = "wheel-pkg"
version = "3.0"
source = { url = "https://x/wheel_pkg-3.0-py3-none-any.whl" }

[[package]]
name = "vendored"
version = "0.0.1"
source = { directory = "vendor/vendored" }
`;
  const { entries, rootDirect } = parseUvLock(text, "uv.lock");
  assert.deepEqual(entries.map((e) => [e.name, e.version, e.pinned, e.source, e.local, e.line]), [
    ["requests", "2.32.3", true, null, false, 21],
    ["tool", "1.0.0", false, "git+https://github.com/o/tool?rev=v1#abc", false, 27],
    ["wheel-pkg", "3.0", false, "https://x/wheel_pkg-3.0-py3-none-any.whl", false, 32],
    ["vendored", "0.0.1", false, "path vendor/vendored", true, 37],
  ]);
  assert.deepEqual([...rootDirect!].sort(), ["lib-one", "requests", "tool"]);
});

Deno.test("poetry.lock (2020): 106 entries, several versions of one name all kept", () => {
  const text = fixture("poetry/python-poetry__poetry__poetry.lock");
  const { entries, rootDirect } = parsePoetryLock(text, "poetry.lock");
  assert.equal(entries.length, 106);
  assert.equal(rootDirect, null);
  assert.ok(entries.every((e) => e.pinned && e.version));
  const versions = (name: string) => entries.filter((e) => e.name === name).map((e) => e.version);
  assert.deepEqual(versions("more-itertools"), ["5.0.0", "7.2.0", "8.0.2"]);
  assert.deepEqual(versions("keyring"), ["18.0.1", "20.0.1"]);
  assert.ok(entries.some((e) => e.name === "aspy-yaml"), "aspy.yaml is normalised");
  const perName = Map.groupBy(entries, (e) => e.name);
  assert.equal(perName.size, 91);
  assert.equal([...perName.values()].filter((list) => list.length > 1).length, 14);
  for (const e of entries) assert.match(lineOf(text, e.line), /^name = "/);
});

Deno.test("poetry.lock 2.x: per-package files, git/directory/url/legacy sources", () => {
  const text = `[[package]]
name = "Flask"
version = "3.0.0"
description = ""
optional = false
python-versions = ">=3.8"
files = [{file = "flask-3.0.0.tar.gz", hash = "sha256:aa"}]

[[package]]
name = "internal"
version = "1.2.0"
optional = false
python-versions = "*"
files = []

[package.source]
type = "legacy"
url = "https://pypi.example/simple"
reference = "private"

[[package]]
name = "forked"
version = "0.3.0"
optional = false
python-versions = "*"
files = []

[package.source]
type = "git"
url = "https://github.com/o/forked.git"
reference = "main"
resolved_reference = "deadbeef"

[[package]]
name = "sibling"
version = "0.1.0"
optional = false
python-versions = "*"
files = []

[package.source]
type = "directory"
url = "../sibling"

[metadata]
lock-version = "2.0"
python-versions = "^3.10"
content-hash = "abc"
`;
  const { entries } = parsePoetryLock(text, "poetry.lock");
  assert.deepEqual(entries.map((e) => [e.name, e.version, e.pinned, e.source, e.local, e.line]), [
    ["flask", "3.0.0", true, null, false, 2],
    ["internal", "1.2.0", true, null, false, 10],
    ["forked", "0.3.0", false, "git+https://github.com/o/forked.git@deadbeef", false, 22],
    ["sibling", "0.1.0", false, "path ../sibling", true, 35],
  ]);
});

Deno.test("pylock.toml (comfy-cli, uv export): 48 entries less the editable project", () => {
  const text = fixture("pylock/Comfy-Org__comfy-cli__pylock.toml");
  const { entries } = parsePylock(text, "pylock.toml");
  assert.equal(entries.length, 47);
  assert.ok(!entries.some((e) => e.name === "comfy-cli"));
  assert.ok(entries.every((e) => e.pinned && e.version));
  for (const e of entries) assert.match(lineOf(text, e.line), /^name = "/);
});

Deno.test("pylock.toml without index (uv pip compile), vcs, archive and directory entries", () => {
  const text = `lock-version = "1.0"
created-by = "uv"
requires-python = ">=3.12"

[[packages]]
name = "pip"
version = "24.0"
wheels = [{ url = "https://x/pip-24.0-py3-none-any.whl", hashes = { sha256 = "aa" } }]

[[packages]]
name = "mylib"
vcs = { type = "git", url = "https://github.com/o/mylib", commit-id = "abc123" }

[[packages]]
name = "tarball"
version = "1.0"
archive = { url = "https://x/tarball-1.0.tar.gz", hashes = { sha256 = "bb" } }

[[packages]]
name = "local"
directory = { path = "../local", editable = false }

[[packages]]
name = "me"
directory = { path = ".", editable = true }
dependencies = [{ name = "pip" }, { name = "MyLib" }]
`;
  const { entries, rootDirect } = parsePylock(text, "pylock.toml");
  assert.deepEqual(entries.map((e) => [e.name, e.version, e.pinned, e.source, e.local]), [
    ["pip", "24.0", true, null, false],
    ["mylib", null, false, "git+https://github.com/o/mylib@abc123", false],
    ["tarball", "1.0", false, "https://x/tarball-1.0.tar.gz", false],
    ["local", null, false, "path ../local", true],
  ]);
  assert.deepEqual([...rootDirect!].sort(), ["mylib", "pip"]);
});

Deno.test("a TOML syntax error is a one-line bad_input error naming the file", () => {
  assert.throws(() => parseUvLock("[[package]\nname = 1", "sub/uv.lock"), (e: Error) => {
    assert.match(e.message, /^Cannot parse sub\/uv\.lock: /);
    assert.ok(!e.message.includes("\n"));
    assert.equal(exitCodeFor(e), 65);
    return true;
  });
});
