import assert from "node:assert/strict";
import { compileRegistry, createSnapshot } from "../registry/compile.ts";
import { approvablePackages } from "./approvable.ts";

Deno.test("approvablePackages() lists the packages a rule allows, never banned or deprecated ones", async () => {
  const compiled = await compileRegistry(`packages:
  - {name: Preferred_One, status: preferred}
  - {name: approved-one, status: approved}
  - {name: constrained, status: version-constrained, min_version: "2.0"}
  - {name: pycrypto, status: banned, replacement: cryptography}
  - {name: nose, status: deprecated}
`);
  assert.ok(compiled.ok);
  const names = approvablePackages(createSnapshot(compiled.registry, compiled.contentHash));
  assert.deepEqual(names.sort(), ["approved-one", "constrained", "preferred-one"]);
});
