import assert from "node:assert/strict";
import { resolve } from "node:path";
import { installBinDir } from "./install.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("installBinDir() mirrors deno install -g: a root ending in bin is the bin folder", () => {
  assert.equal(installBinDir(env({ DENO_INSTALL_ROOT: "/x/bin" })), "/x/bin");
  assert.equal(installBinDir(env({ DENO_INSTALL_ROOT: "/x/bin/" })), "/x/bin");
  assert.equal(installBinDir(env({ DENO_INSTALL_ROOT: "/x" })), "/x/bin");
  assert.equal(installBinDir(env({ DENO_INSTALL_ROOT: "/x/binx" })), "/x/binx/bin");
  assert.equal(installBinDir(env({ DENO_INSTALL_ROOT: "rel" })), resolve("rel", "bin"));
  assert.equal(installBinDir(env({ HOME: "/home/u" })), "/home/u/.deno/bin");
  assert.equal(installBinDir(env({ HOME: "/home/u", DENO_INSTALL_ROOT: "" })), "/home/u/.deno/bin");
});
