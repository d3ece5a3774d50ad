import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { baseName, joinPath, parentDir } from "./os_path.ts";

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
