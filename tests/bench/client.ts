/**
 * Client start-up benchmark: wall time of `policy check` and of
 * `policy precommit` with 50 staged dependencies, next to the time of
 * starting an empty Deno script, measured in the same run against a real
 * policyd on loopback. Prints medians and ratios.
 *
 *   deno run -A tests/bench/client.ts [--runs N]
 *
 * @module
 */

import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { exec, gitIn, policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

const runsFlag = Deno.args.indexOf("--runs");
const RUNS = runsFlag >= 0 ? Number(Deno.args[runsFlag + 1]) : 7;

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm caches (module graph, npm resolution)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const server = await startTestServer();
const names = Array.from({ length: 50 }, (_, i) => `"bench-package-${i}>=1.0"`);
const repo = await tempGitRepo({
  "pyproject.toml": `[project]\nname = "bench"\ndependencies = [${names.join(", ")}]\n`,
});
await writePolicyToml(repo, server.url);
await gitIn(repo, ["add", "-A"]);
const empty = join(repo, "empty.ts");
await Deno.writeTextFile(empty, "");

try {
  const baseline = await median(async () =>
    (await exec(Deno.execPath(), ["run", empty], { cwd: repo })).code
  );
  const check = await median(async () => {
    const ran = await policy(["check", "requests"], { cwd: repo });
    if (ran.code !== 0) throw new Error(ran.stderr);
    return ran.code;
  });
  const precommit = await median(async () => {
    const ran = await policy(["precommit"], { cwd: repo });
    if (ran.code !== 0) throw new Error(ran.stderr);
    return ran.code;
  });
  const row = (name: string, ms: number) =>
    `${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms  ${
      (ms / baseline).toFixed(2).padStart(6)
    } × empty`;
  console.log(
    `policy client bench (median of ${RUNS} runs, ${Deno.build.os}/${Deno.build.arch}, deno ${Deno.version.deno})`,
  );
  console.log(row("deno run empty.ts", baseline));
  console.log(row("policy check requests", check));
  console.log(row("policy precommit (50 deps)", precommit));
} finally {
  await server.close();
  await Deno.remove(repo, { recursive: true });
}
