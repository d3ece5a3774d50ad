/**
 * Client start-up benchmark (issue #17: `policy check` ≤ 2 × an empty Deno
 * script; issue #27: `policy precommit` adding 50 dependencies ≤ 2 ×), whole
 * processes against a real policyd on loopback. The client runs as
 * `deno task install` installs it: the bundle `tools/bundle_client.ts` builds
 * (into a scratch directory here), `deno run -A --no-config dist/policy/policy.js`.
 * Rows: two empty scripts, `deno run empty.ts` and the same run the way the
 * sources run (`deno run -A --config deno.json`), then `policy check`,
 * `policy hook` (a Claude Code PreToolUse edit of a file that is not a
 * manifest, and a Bash command that installs nothing: goal ≤ 1.5 × empty,
 * issue #27), `policy precommit` with nothing staged, and with a staged
 * commit adding 50 dependencies to `pyproject.toml` and to `requirements.txt`
 * (real git repositories; one batch evaluation each), the git shim `policy
 * init` installs (what `git commit` runs), the same two pre-commit rows run
 * from the sources (`deno task policy`), and two floor rows: a script that
 * only runs `git diff --cached -p`, and one that also sends the 50 queries to
 * policyd in one HTTP/1.1 exchange (what a pre-commit check in Deno cannot
 * go below).
 *
 * It times the processes itself (no hyperfine): the rounds are interleaved
 * (every command once per round, after two warm-up rounds), each command runs
 * through `bash -c 'CMD; times'`, whose `times` prints the CPU time (user +
 * system) of its children, and the wall time of a bare `bash -c 'times'` is
 * subtracted. Prints the median wall time and the mean CPU time, each as a
 * ratio to both empty scripts.
 *
 *   deno run -A tests/bench/client.ts [--runs N]   (env BENCH_CLIENT_RUNS, default 15)
 *
 * @module
 */

import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import {
  bundledPolicyCmd,
  gitIn,
  SOURCE_POLICY_CMD,
  tempGitRepo,
  writePolicyToml,
} from "../../cli/policy/_testing.ts";
import { bundleClient } from "../../tools/bundle_client.ts";

const runsFlag = Deno.args.indexOf("--runs");
const RUNS = Number(
  runsFlag >= 0 ? Deno.args[runsFlag + 1] : Deno.env.get("BENCH_CLIENT_RUNS") ?? 15,
);

const server = await startTestServer();
// The installed command: the bundled client, as `deno task install` builds and installs it.
const bundleDir = await Deno.makeTempDir({ prefix: "policy-bench-bundle-" });
const INSTALLED = bundledPolicyCmd(await bundleClient({ outDir: join(bundleDir, "policy") }));
const names = Array.from({ length: 50 }, (_, i) => `"bench-package-${i}>=1.0"`);
// The commit adds 50 dependencies to pyproject.toml: precommit parses both
// versions of the manifest and evaluates the 50 in one batch.
const repo = await tempGitRepo({
  "pyproject.toml": `[project]\nname = "bench"\ndependencies = []\n`,
});
await Deno.writeTextFile(
  join(repo, "pyproject.toml"),
  `[project]\nname = "bench"\ndependencies = [${names.join(", ")}]\n`,
);
await writePolicyToml(repo, server.url);
// The same with requirements.txt: 50 pinned lines (pip freeze's form) added to a committed file.
const reqs = await tempGitRepo({ "requirements.txt": "# pinned\n" });
await Deno.writeTextFile(
  join(reqs, "requirements.txt"),
  `# pinned\n${Array.from({ length: 50 }, (_, i) => `bench-package-${i}==1.0.${i}\n`).join("")}`,
);
await writePolicyToml(reqs, server.url);
await gitIn(reqs, ["add", "-A"]);
// A second project with nothing staged: precommit reads the index and asks nothing.
const clean = await tempGitRepo({ "README.md": "clean\n" });
await writePolicyToml(clean, server.url);
await gitIn(repo, ["add", "-A"]);
const empty = join(repo, "empty.ts");
await Deno.writeTextFile(empty, "");
// The floor of any pre-commit check in Deno: one git process reading the staged diff and, given a
// URL, one HTTP/1.1 exchange sending the 50 range queries; no parsing, validation or output.
const floor = join(repo, "floor.ts");
await Deno.writeTextFile(
  floor,
  `await new Deno.Command("git", { args: ["diff", "--cached", "-p"], stdout: "piped" }).output();
const target = Deno.args[0];
if (target) {
  const url = new URL(target);
  const body = ${
    JSON.stringify(JSON.stringify({ packages: names.map((n) => ({ package: JSON.parse(n) })) }))
  };
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const head = "POST /api/v1/evaluate/batch HTTP/1.1\\r\\nhost: " + url.host +
    "\\r\\ncontent-type: application/json\\r\\nconnection: close\\r\\ncontent-length: ";
  await conn.write(new TextEncoder().encode(head + body.length + "\\r\\n\\r\\n" + body));
  const buffer = new Uint8Array(65536);
  while ((await conn.read(buffer)) !== null) continue;
  conn.close();
}
`,
);
/** Writes one hook payload for the benchmark and returns its path. */
async function hookPayload(name: string, toolName: string, toolInput: Record<string, string>) {
  const path = join(repo, name);
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      hook_event_name: "PreToolUse",
      tool_name: toolName,
      cwd: repo,
      tool_input: toolInput,
    }),
  );
  return path;
}
const hookInput = await hookPayload("hook.json", "Edit", {
  file_path: join(repo, "README.md"),
  old_string: "demo",
  new_string: "bench",
});
// A Bash command that installs nothing: decided by the cheap look, before the shell reader loads.
const bashInput = await hookPayload("bash.json", "Bash", { command: "ls -la && git status" });

// The git shim `policy init` installs: what `git commit` runs (its own git piped into precommit).
// Installed as users install it: `policy init` run from the bundle (the shim runs its eager copy).
for (const dir of [repo, reqs]) {
  const init = await new Deno.Command(INSTALLED[0], {
    args: [...INSTALLED.slice(1), "init", "--yes", "--no-claude-hooks", "--no-claude-md"],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!init.success) {
    throw new Error(`policy init failed: ${new TextDecoder().decode(init.stderr)}`);
  }
}
const shim = "sh .git/hooks/pre-commit";

const quote = (args: string[]) => args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
const policy = (...args: string[]) => quote([...INSTALLED, ...args]);
const fromSource = (...args: string[]) => quote([...SOURCE_POLICY_CMD, ...args]);
const config = SOURCE_POLICY_CMD[SOURCE_POLICY_CMD.indexOf("--config") + 1];
const commands: Array<[string, string]> = [
  ["deno run empty.ts", quote([Deno.execPath(), "run", empty])],
  [
    "deno run -A --config empty.ts",
    quote([Deno.execPath(), "run", "-A", "--config", config, empty]),
  ],
  ["policy check requests", policy("check", "requests")],
  ["policy hook (PreToolUse)", `${policy("hook")} < ${quote([hookInput])}`],
  ["policy hook (Bash, no install)", `${policy("hook")} < ${quote([bashInput])}`],
  ["policy precommit (nothing)", `cd ${quote([clean])} && ${policy("precommit")}`],
  ["policy precommit (50 deps)", policy("precommit")],
  ["policy precommit (50 reqs)", `cd ${quote([reqs])} && ${policy("precommit")}`],
  ["git pre-commit shim (50 deps)", shim],
  ["git pre-commit shim (50 reqs)", `cd ${quote([reqs])} && ${shim}`],
  ["source: precommit (50 deps)", fromSource("precommit")],
  ["source: precommit (50 reqs)", `cd ${quote([reqs])} && ${fromSource("precommit")}`],
  // The floor rows: what the two pre-commit rows above cannot go below (docs/performance.md).
  ["floor: git diff only", quote([Deno.execPath(), "run", "-A", "--config", config, floor])],
  [
    "floor: git diff + batch HTTP",
    quote([Deno.execPath(), "run", "-A", "--config", config, floor, server.url]),
  ],
];

/** Wall and children's CPU time (ms) of one `bash -c 'CMD; times'` run in the repository. */
async function timed(command: string): Promise<[number, number]> {
  const started = performance.now();
  const out = await new Deno.Command("bash", {
    args: ["-c", `${command} >/dev/null 2>&1; times`],
    cwd: repo,
    stdout: "piped",
    stderr: "null",
  }).output();
  const wall = performance.now() - started;
  // `times` prints the shell's user/system line, then its children's: "0m0.012s 0m0.004s".
  const line = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (secs.length !== 2) throw new Error(`unexpected output of times: ${line}`);
  return [wall, (secs[0] + secs[1]) * 1000];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  // Every command must succeed (the 50 added dependencies are unknown: provisionally allowed).
  for (const [name, command] of commands) {
    const out = await new Deno.Command("bash", { args: ["-c", command], cwd: repo }).output();
    if (!out.success) throw new Error(`${name} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const shell: number[] = [];
  const walls: number[][] = commands.map(() => []);
  const cpus: number[][] = commands.map(() => []);
  for (let round = -2; round < RUNS; round++) {
    const [bare] = await timed(":");
    for (const [i, [, command]] of commands.entries()) {
      const [wall, cpu] = await timed(command);
      if (round < 0) continue;
      walls[i].push(wall);
      cpus[i].push(cpu);
    }
    if (round >= 0) shell.push(bare);
  }
  const shellWall = median(shell);
  const results = commands.map(([name], i): [string, number, number] => [
    name,
    median(walls[i]) - shellWall,
    cpus[i].reduce((a, b) => a + b, 0) / cpus[i].length,
  ]);
  console.log(
    `policy client start-up (${RUNS} interleaved rounds, ${Deno.build.os}/${Deno.build.arch}, deno ${Deno.version.deno}, load ${
      Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
    })`,
  );
  console.log(
    `${"".padEnd(30)} ${"wall ms".padStart(8)}  ${"× empty".padStart(7)} ${"× cfg".padStart(6)}   ${
      "CPU ms".padStart(7)
    }  ${"× empty".padStart(7)} ${"× cfg".padStart(6)}`,
  );
  const [[, wall0, cpu0], [, wall1, cpu1]] = results;
  for (const [name, wall, cpu] of results) {
    console.log(
      `${name.padEnd(30)} ${wall.toFixed(1).padStart(8)}  ${
        (wall / wall0).toFixed(2).padStart(7)
      } ${(wall / wall1).toFixed(2).padStart(6)}   ${cpu.toFixed(1).padStart(7)}  ${
        (cpu / cpu0).toFixed(2).padStart(7)
      } ${(cpu / cpu1).toFixed(2).padStart(6)}`,
    );
  }
  console.log(
    "goals: policy check ≤ 2.00 × empty (issue #17), policy hook (Bash, no install) ≤ 1.50 × " +
      "empty and policy precommit (50 deps) ≤ 2.00 × empty (issue #27; the shim rows are what git commit " +
      "runs). policy rows: the installed (bundled) client; source rows: deno task policy, whose " +
      "like-for-like ratio is × cfg (same deno flags and config)",
  );
} finally {
  await server.close();
  await Deno.remove(repo, { recursive: true });
  await Deno.remove(clean, { recursive: true });
  await Deno.remove(reqs, { recursive: true });
  await Deno.remove(bundleDir, { recursive: true });
}
