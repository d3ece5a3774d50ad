/**
 * Client start-up benchmark, whole processes measured with `hyperfine` in
 * one run: an empty Deno script next to `policy check`, `policy hook` (a
 * Claude Code PreToolUse edit of a file that is not a manifest) and
 * `policy precommit` with 50 staged dependencies, against a real policyd on
 * loopback. Prints the median wall time and the mean CPU time (user +
 * system, steadier on a shared machine) with their ratios to the empty script.
 *
 *   deno run -A tests/bench/client.ts [--runs N]   (env BENCH_CLIENT_RUNS, default 15)
 *
 * @module
 */

import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { gitIn, POLICY_CMD, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

const runsFlag = Deno.args.indexOf("--runs");
const RUNS = Number(
  runsFlag >= 0 ? Deno.args[runsFlag + 1] : Deno.env.get("BENCH_CLIENT_RUNS") ?? 15,
);

const server = await startTestServer();
const names = Array.from({ length: 50 }, (_, i) => `"bench-package-${i}>=1.0"`);
const repo = await tempGitRepo({
  "pyproject.toml": `[project]\nname = "bench"\ndependencies = [${names.join(", ")}]\n`,
});
await writePolicyToml(repo, server.url);
await gitIn(repo, ["add", "-A"]);
const empty = join(repo, "empty.ts");
await Deno.writeTextFile(empty, "");
const hookInput = join(repo, "hook.json");
await Deno.writeTextFile(
  hookInput,
  JSON.stringify({
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    cwd: repo,
    tool_input: { file_path: join(repo, "README.md"), old_string: "demo", new_string: "bench" },
  }),
);

const quote = (args: string[]) => args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
const policy = (...args: string[]) => quote([...POLICY_CMD, ...args]);
// hyperfine runs each command through the shell (subtracting the shell's own
// start-up), which also feeds the hook its stdin.
const commands: Array<[string, string]> = [
  ["deno run empty.ts", quote([Deno.execPath(), "run", empty])],
  ["policy check requests", policy("check", "requests")],
  ["policy hook (PreToolUse)", `${policy("hook")} < ${quote([hookInput])}`],
  ["policy precommit (50 deps)", policy("precommit")],
];

try {
  const results: Array<[string, number, number]> = [];
  for (const [name, command] of commands) {
    const json = join(repo, "hyperfine.json");
    const out = await new Deno.Command("hyperfine", {
      args: [
        "--warmup",
        "3",
        "--runs",
        String(RUNS),
        "--export-json",
        json,
        command,
      ],
      cwd: repo,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`${name}: ${new TextDecoder().decode(out.stderr)}`);
    const report = JSON.parse(await Deno.readTextFile(json));
    const result = report.results[0];
    results.push([name, result.median * 1000, (result.user + result.system) * 1000]);
  }
  const baseline = results[0][1];
  console.log(
    `policy client start-up (hyperfine, median of ${RUNS} runs, ${Deno.build.os}/${Deno.build.arch}, deno ${Deno.version.deno})`,
  );
  const baselineCpu = results[0][2];
  for (const [name, ms, cpu] of results) {
    console.log(
      `${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms  ${
        (ms / baseline).toFixed(2).padStart(6)
      } × empty   CPU ${cpu.toFixed(1).padStart(6)} ms  ${(cpu / baselineCpu).toFixed(2)} × empty`,
    );
  }
  console.log("goal: policy check ≤ 2.00 × empty");
} finally {
  await server.close();
  await Deno.remove(repo, { recursive: true });
}
