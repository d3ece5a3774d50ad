/**
 * Test utilities for the client: run `policy` as a subprocess and make real
 * temporary git repositories. Imported by tests only.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseToml } from "smol-toml";
import type { Io } from "./io.ts";

/** Absolute path of the repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** Output of one subprocess run. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment every subprocess gets: no inherited Claude or agent variables. */
function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "DENO_DIR", "TMPDIR", "LANG"]) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return { ...env, GIT_CONFIG_NOSYSTEM: "1", NO_COLOR: "1", ...extra };
}

/** Runs a program and collects its output. */
export async function exec(
  cmd: string,
  args: string[],
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<Ran> {
  // The client keeps registry snapshots per server URL (offline rules): unless a test names a
  // cache directory, each run gets its own, so a port reused later never finds an old snapshot.
  const cache = options.env?.POLICY_CACHE_DIR ? null : await Deno.makeTempDir({ prefix: "pc-" });
  try {
    return await execIn(cmd, args, {
      ...options,
      env: cache ? { POLICY_CACHE_DIR: cache, ...options.env } : options.env,
    });
  } finally {
    if (cache) await Deno.remove(cache, { recursive: true }).catch(() => {});
  }
}

async function execIn(
  cmd: string,
  args: string[],
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<Ran> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    env: baseEnv(options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The argv prefix that runs the client from source. */
export const SOURCE_POLICY_CMD: readonly string[] = [
  Deno.execPath(),
  "run",
  "-A",
  "--config",
  join(REPO_ROOT, "deno.json"),
  join(REPO_ROOT, "cli", "policy.ts"),
];

/** The argv prefix that runs a bundled client (`tools/bundle_client.ts`) whose entry is `entry`. */
export function bundledPolicyCmd(entry: string): string[] {
  return [Deno.execPath(), "run", "-A", "--no-config", entry];
}

/**
 * The client the tests run: the sources, or the bundle whose entry
 * `POLICY_TEST_BUNDLE` names (`deno task bundle`, then
 * `POLICY_TEST_BUNDLE=dist/policy/policy.js deno test -A tests/e2e`).
 */
export const POLICY_CMD: string[] = Deno.env.get("POLICY_TEST_BUNDLE")
  ? bundledPolicyCmd(Deno.realPathSync(Deno.env.get("POLICY_TEST_BUNDLE")!))
  : [...SOURCE_POLICY_CMD];

/** Runs `policy args…` in `cwd`. */
export function policy(
  args: string[],
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<Ran> {
  return exec(POLICY_CMD[0], [...POLICY_CMD.slice(1), ...args], options);
}

/** Runs git in `cwd`, failing the test on a non-zero exit unless `allowFail`. */
export async function gitIn(cwd: string, args: string[], allowFail = false): Promise<Ran> {
  const ran = await exec("git", args, { cwd });
  if (!allowFail && ran.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed (${ran.code}): ${ran.stderr}`);
  }
  return ran;
}

/** A fresh git repository with a local identity and one commit. */
export async function tempGitRepo(files: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "policy-e2e-" });
  await gitIn(dir, ["init", "-q", "-b", "main"]);
  await gitIn(dir, ["config", "user.name", "Policy Test"]);
  await gitIn(dir, ["config", "user.email", "policy-test@example.com"]);
  await gitIn(dir, ["config", "commit.gpgsign", "false"]);
  for (const [name, text] of Object.entries({ "README.md": "# demo\n", ...files })) {
    await Deno.writeTextFile(join(dir, name), text);
  }
  await gitIn(dir, ["add", "-A"]);
  await gitIn(dir, ["commit", "-q", "-m", "initial"]);
  return dir;
}

/** A loopback URL on which nothing listens. */
export function deadServerUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** Writes a `.policy.toml` pointing at `serverUrl`. */
export async function writePolicyToml(dir: string, serverUrl: string, extra = ""): Promise<void> {
  await Deno.writeTextFile(
    join(dir, ".policy.toml"),
    `project = "demo"\nserver_url = ${JSON.stringify(serverUrl)}\n${extra}`,
  );
}

/** The shared pyproject.toml fixtures (beside the repository, in shared/). */
export const FIXTURES = new URL("../../tests/fixtures/pyproject/", import.meta.url);

/** Independent reading of a fixture with smol-toml and a plain name regex. */
export function expectedRuntimeNames(text: string): Set<string> {
  // deno-lint-ignore no-explicit-any
  const doc = parseToml(text) as any;
  const names = new Set<string>();
  for (const line of doc.project?.dependencies ?? []) {
    names.add(
      /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line)![1].toLowerCase().replace(/[-_.]+/g, "-"),
    );
  }
  for (const key of Object.keys(doc.tool?.poetry?.dependencies ?? {})) {
    const name = key.toLowerCase().replace(/[-_.]+/g, "-");
    if (name !== "python") names.add(name);
  }
  return names;
}

/**
 * A directory holding an executable `policy` that runs this checkout's client,
 * standing in for `deno task install`: prepend it to PATH to have `policy` on PATH.
 */
export async function policyOnPathDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "policy-bin-" });
  const quoted = POLICY_CMD.map((a) => `'${a.replaceAll("'", `'"'"'`)}'`).join(" ");
  await Deno.writeTextFile(join(dir, "policy"), `#!/bin/sh\nexec ${quoted} "$@"\n`, {
    mode: 0o755,
  });
  return dir;
}

/** Runs a command line through `sh -c` the way agents run hook commands. */
export function shell(
  command: string,
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<Ran> {
  return exec("sh", ["-c", command], options);
}

/** `policy init` arguments that configure only the installers' index (`--index`), nothing else. */
export const INIT_INDEX_ONLY = [
  "init",
  "--yes",
  "--index",
  "--no-claude-hooks",
  "--no-mcp",
  "--no-precommit",
  "--no-claude-md",
];

/** An in-process Io for a command run in `cwd` with `env`; output is collected in `out`/`err`. */
export function bufferedIo(
  cwd: string = Deno.cwd(),
  env: Record<string, string> = {},
): Io & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    cwd,
    env: (name: string) => env[name],
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    readStdin: () => Promise.resolve(""),
    readLine: () => Promise.resolve(null),
    stdinIsTerminal: () => false,
    selfCommand: ["policy"],
  };
  return io;
}
