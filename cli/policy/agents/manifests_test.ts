import assert from "node:assert/strict";
import { manifestKind, projectRootOf, requirementsFileEntries } from "./manifests.ts";

Deno.test("manifestKind() recognises pyproject, requirements and constraints files", () => {
  const cases: Array<[string, string | null]> = [
    ["/r/pyproject.toml", "pyproject"],
    ["/r/services/api/pyproject.toml", "pyproject"],
    ["/r/requirements.txt", "requirements"],
    ["/r/requirements-dev.txt", "requirements"],
    ["/r/dev-requirements.in", "requirements"],
    ["/r/requirements/base.txt", "requirements"],
    ["/r/constraints.txt", "requirements"],
    ["/r/README.md", null],
    ["/r/notes.txt", null],
    ["/r/pyproject.toml.bak", null],
  ];
  for (const [path, kind] of cases) assert.equal(manifestKind(path), kind, path);
});

Deno.test("requirementsFileEntries() reads packages and nested files, also mid-edit", () => {
  const entries = requirementsFileEntries(
    "# tools\nrequests[socks]>=2.31 ; python_version > '3.8'\n-r base.txt\n-c constraints.txt\nPyYAML==5.1\n",
  );
  assert.deepEqual([...entries.packages.keys()], ["requests", "pyyaml"]);
  assert.equal(entries.packages.get("pyyaml"), "PyYAML==5.1");
  assert.deepEqual(entries.files, ["base.txt", "constraints.txt"]);
  const broken = requirementsFileEntries("requests>=\npycrypto==2.6.1\n--hash\n");
  assert.ok(broken.packages.has("pycrypto"));
});

Deno.test("projectRootOf() takes the nearest ancestor with .policy.toml or pyproject.toml", () => {
  const present = new Set(["/r/.policy.toml", "/r/svc/pyproject.toml"]);
  const exists = (p: string) => present.has(p);
  assert.equal(projectRootOf("/r/svc/requirements/dev.txt", exists), "/r/svc");
  assert.equal(projectRootOf("/r/other/requirements.txt", exists), "/r");
  assert.equal(projectRootOf("/r/new/pyproject.toml", exists), "/r/new");
  assert.equal(projectRootOf("/tmp/x/requirements.txt", () => false), "/tmp/x");
});
