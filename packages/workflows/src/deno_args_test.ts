import assert from "node:assert/strict";
import { analyseDenoTestArgs, forbiddenDenoTestArg, permissionArgs } from "./deno_args.ts";

Deno.test("analyseDenoTestArgs() tells full runs from narrowed ones", async (t) => {
  const cases: [string[], string | undefined][] = [
    [[], undefined],
    [["-A", "--unstable-cron", "--parallel"], undefined],
    [["-A", "--config", "deno.json", "--reporter", "dot"], undefined],
    [["-A", "tests/a_test.ts"], "tests/a_test.ts"],
    [["-A", "tests/"], "tests/"],
    [["-A", "--filter", "login"], "--filter"],
    [["-A", "--filter=login"], "--filter"],
    [["--shard=1/2"], "--shard"],
    [["--fail-fast"], "--fail-fast"],
    [["-A", "--", "script-arg"], undefined],
    [["--lock", "deno.lock", "-A"], undefined],
  ];
  for (const [args, narrowed] of cases) {
    await t.step(
      args.join(" ") || "(none)",
      () => assert.equal(analyseDenoTestArgs(args).narrowedBy, narrowed),
    );
  }
});

Deno.test("permissionArgs() adds only what does not conflict with or narrow the user's flags", () => {
  const dir = "/tmp/run";
  const env = "WORKFLOWS_RUN_DIR";
  assert.deepEqual(permissionArgs([], dir, env), [
    "--allow-write=/tmp/run",
    "--allow-env=WORKFLOWS_RUN_DIR",
  ]);
  assert.deepEqual(permissionArgs(["-A"], dir, env), []);
  assert.deepEqual(permissionArgs(["--allow-all"], dir, env), []);
  assert.deepEqual(permissionArgs(["-P"], dir, env), []);
  assert.deepEqual(permissionArgs(["--allow-write", "-E"], dir, env), []);
  assert.deepEqual(permissionArgs(["--allow-write=/x", "--allow-env=HOME"], dir, env), [
    "--allow-write=/tmp/run",
    "--allow-env=WORKFLOWS_RUN_DIR",
  ]);
  assert.deepEqual(permissionArgs(["--", "-A"], dir, env).length, 2, "script args are not flags");
});

Deno.test("forbiddenDenoTestArg() refuses options the runner manages", () => {
  assert.equal(forbiddenDenoTestArg(["--junit-path", "x.xml"]), "--junit-path");
  assert.equal(forbiddenDenoTestArg(["--watch"]), "--watch");
  assert.equal(forbiddenDenoTestArg(["-A"]), undefined);
});
