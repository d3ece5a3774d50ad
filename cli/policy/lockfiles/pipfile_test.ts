import assert from "node:assert/strict";
import { normalizeName } from "../../../src/core/names.ts";
import { fixture } from "./_fixtures.ts";
import { exactVersion, parsePipfileLock } from "./pipfile.ts";

Deno.test("Pipfile.lock (pipenv): 90 entries less the project; git and path entries unpinned", () => {
  const text = fixture("pipfile/pypa__pipenv__Pipfile.lock");
  const { entries } = parsePipfileLock(text, "Pipfile.lock");
  assert.equal(entries.length, 89);
  assert.equal(entries.filter((e) => e.pinned).length, 86);
  assert.ok(!entries.some((e) => e.name === "pipenv"));
  assert.deepEqual(
    entries.filter((e) => !e.pinned).map((e) => [e.name, e.source?.split("@")[0], e.local]),
    [
      ["passa", "git+https://github.com/sarugaku/passa.git", false],
      ["pytest-pypy", "path ./tests/pytest-pypi", true],
      ["towncrier", "git+https://github.com/hawkowl/towncrier.git", false],
    ],
  );
  const lines = text.split("\n");
  for (const e of entries) {
    const key = /^\s+"([^"]+)": \{/.exec(lines[e.line - 1]);
    assert.equal(normalizeName(key![1]), e.name);
  }
});

Deno.test("Pipfile.lock sections: default, develop and custom categories; versions ==X only", () => {
  const text = JSON.stringify(
    {
      _meta: { "pipfile-spec": 6 },
      default: { "Zope.Interface": { version: "==6.0" } },
      develop: { pytest: { version: "==8.0.0", markers: "python_version >= '3.8'" } },
      docs: { sphinx: { version: ">=7" }, "my-file": { file: "https://x/my_file-1.0.tar.gz" } },
    },
    null,
    4,
  );
  const { entries } = parsePipfileLock(text, "Pipfile.lock");
  assert.deepEqual(entries.map((e) => [e.name, e.version, e.pinned, e.specifier, e.source]), [
    ["zope-interface", "6.0", true, null, null],
    ["pytest", "8.0.0", true, null, null],
    ["sphinx", null, false, ">=7", null],
    ["my-file", null, false, null, "https://x/my_file-1.0.tar.gz"],
  ]);
  assert.equal(exactVersion("===1.0"), "1.0");
  assert.equal(exactVersion("==1.*"), null);
});

Deno.test("Pipfile.lock that is not JSON is a one-line error", () => {
  assert.throws(
    () => parsePipfileLock("{nope", "Pipfile.lock"),
    /^ClientError: Cannot parse Pipfile\.lock: /,
  );
});
