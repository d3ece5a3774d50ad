import assert from "node:assert/strict";
import { basename, dirname, join, resolve } from "node:path";
import { baseName, joinPath, parentDir, resolvePath } from "./os_path.ts";

const PATHS = ["/", "/a", "/a/", "/a/b", "/a/b/", "/work/my project/app", "a", "a/b", "/ä/ü#1"];

Deno.test("parentDir and baseName agree with node:path on the paths Deno.cwd() returns", () => {
  for (const path of PATHS) {
    assert.equal(parentDir(path), dirname(path), `parentDir(${path})`);
    assert.equal(baseName(path), basename(path), `baseName(${path})`);
  }
});

Deno.test("joinPath adds one separator, like node:path join on normalised directories", () => {
  for (const dir of ["/", "/a", "/a/", "/work/my project"]) {
    assert.equal(joinPath(dir, ".policy.toml"), join(dir, ".policy.toml"), dir);
  }
});

Deno.test("walking up with parentDir ends at the root", () => {
  const seen: string[] = [];
  for (let dir = "/a/b/c";; dir = parentDir(dir)) {
    seen.push(dir);
    if (parentDir(dir) === dir) break;
  }
  assert.deepEqual(seen, ["/a/b/c", "/a/b", "/a", "/"]);
});

Deno.test("resolvePath agrees with node:path resolve on absolute, relative, dotted and trailing paths", () => {
  const bases = ["/work/app", "/work/app/", "/", ".", "sub", "../up", "/a/./b/../c"];
  const paths = [
    "pyproject.toml",
    "./requirements/dev.txt",
    "../x/../y//z/",
    "/abs/./p/../q",
    "/",
    ".",
    "..",
    "../../../../../..",
    "a b/ä.txt",
  ];
  for (const base of bases) {
    for (const path of paths) {
      assert.equal(resolvePath(base, path), resolve(base, path), `resolvePath(${base}, ${path})`);
    }
  }
});
