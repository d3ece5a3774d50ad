/**
 * `deno task test` runs through this script: it makes sure what the test
 * suite needs is there before any test runs, runs the command it is given,
 * and cleans up after it.
 *
 * - **Redis**: `redis-server` installed (installed from Debian when missing
 *   and running as root; some tests start their own), and a Redis answering
 *   `PING`: the one on `127.0.0.1:6379` (or `POLICYD_TEST_REDIS_URL`) when it
 *   answers, otherwise a throwaway `redis-server` on a free loopback port,
 *   stopped afterwards. The tests that use Redis read its URL from
 *   `POLICYD_TEST_REDIS_URL`.
 * - **Chromium** at `/usr/bin/chromium` (or `CHROMIUM_PATH`): installed from
 *   Debian when missing and running as root.
 * - **pre-commit** (the framework, Debian's `pre-commit`) on the PATH: the
 *   `policy init --precommit-framework` test commits through it; installed
 *   from Debian when missing and running as root.
 * - **PostgreSQL** accepting connections at `127.0.0.1:5432` (or the server
 *   of `POLICYD_TEST_POSTGRES`): the store contract, check-config and
 *   multi-instance tests create and drop their own databases there (trust
 *   auth, user `postgres`). It is never installed or started here: a missing
 *   server is reported.
 *
 * - **Debian's pip and venv** (`python3-pip`, `python3-venv`): the policy
 *   index tests install real wheels with Debian's pip in a fresh virtual
 *   environment; installed from Debian when missing and running as root.
 *
 * When a prerequisite cannot be had, it prints one line per missing thing
 * (what, and how to get it) and exits 1 before any test runs, so the
 * committed `workflows.md` is never touched.
 *
 * Usage: `deno run -A tools/prerequisites.ts [--check] [-- COMMAND ARGS…]`
 * (`deno` as the command is the running Deno executable).
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  configuredRedisUrl,
  DEBIAN_CHROMIUM,
  DEBIAN_TOOLS,
  type DebianTool,
  gatherFacts,
  type MachineFacts,
  redisAnswers,
  TEST_REDIS_URL_ENV,
} from "./machine_facts.ts";

export * from "./machine_facts.ts";

/** One thing to do before the tests run. */
export type PreparationStep =
  | { kind: "install"; debianPackage: "redis-server" | "chromium" | "pre-commit" | DebianTool }
  | { kind: "start-redis" };

/** The decision: the steps to take, or what is missing and how to get it. */
export interface PreparationPlan {
  steps: PreparationStep[];
  /** One line per prerequisite that cannot be had; non-empty means: do not run the tests. */
  missing: string[];
}

/**
 * Decides what to do from the facts alone (pure, so the "missing" path is
 * testable on a machine that has everything). Installs happen only as root
 * with apt-get, and Chromium is installed only when it is expected at the
 * Debian package's own path.
 *
 * @example
 * ```ts
 * import { planPreparation } from "./prerequisites.ts";
 * planPreparation({
 *   redisAnswers: true, redisServerInstalled: true, precommitInstalled: true,
 *   chromiumPath: "/usr/bin/chromium",
 *   chromiumPresent: true, canInstallPackages: false,
 * }); // { steps: [], missing: [] }
 * ```
 */
export function planPreparation(facts: MachineFacts): PreparationPlan {
  const steps: PreparationStep[] = [];
  const missing: string[] = [];
  // Some tests start (and kill) their own redis-server, so the binary is needed
  // even when a Redis already answers.
  if (!facts.redisServerInstalled) {
    if (facts.canInstallPackages) {
      steps.push({ kind: "install", debianPackage: "redis-server" });
    } else {
      missing.push(
        "missing: redis-server (the cache tests run a real Redis and start their own servers): " +
          "run `sudo apt-get install -y redis-server`",
      );
    }
  }
  if (!facts.redisAnswers && missing.length === 0) steps.push({ kind: "start-redis" });
  if (!facts.chromiumPresent) {
    if (facts.chromiumPath === DEBIAN_CHROMIUM && facts.canInstallPackages) {
      steps.push({ kind: "install", debianPackage: "chromium" });
    } else {
      missing.push(
        `missing: Chromium at ${facts.chromiumPath} (the dashboard browser tests drive it): ` +
          (facts.chromiumPath === DEBIAN_CHROMIUM
            ? "run `sudo apt-get install -y chromium`"
            : "install it there, or unset CHROMIUM_PATH to use Debian's /usr/bin/chromium"),
      );
    }
  }
  if (!facts.precommitInstalled) {
    if (facts.canInstallPackages) {
      steps.push({ kind: "install", debianPackage: "pre-commit" });
    } else {
      missing.push(
        "missing: pre-commit (the pre-commit framework test commits through it): " +
          "run `sudo apt-get install -y pre-commit`",
      );
    }
  }
  for (const tool of facts.debianToolsMissing ?? []) {
    if (facts.canInstallPackages) steps.push({ kind: "install", debianPackage: tool });
    else {
      missing.push(
        `missing: ${tool} (${DEBIAN_TOOLS[tool]}): run \`sudo apt-get install -y ${tool}\``,
      );
    }
  }
  if (!facts.postgresAnswers) {
    missing.push(
      `missing: PostgreSQL at ${facts.postgresServer} (the store contract and multi-instance tests ` +
        "create their own databases there, trust auth): start it " +
        "(`sudo service postgresql start`), or set POLICYD_TEST_POSTGRES=postgres://user@host:port",
    );
  }
  return { steps, missing };
}

async function aptInstall(debianPackage: string): Promise<void> {
  console.error(`prerequisites: installing ${debianPackage} from Debian (apt-get)`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", debianPackage]]) {
    const output = await new Deno.Command("apt-get", { args, env, stdout: "null", stderr: "piped" })
      .output();
    if (!output.success) {
      const reason = new TextDecoder().decode(output.stderr).trim().split("\n").at(-1);
      throw new Error(`apt-get ${args[0]} failed (${reason}): install ${debianPackage} by hand`);
    }
  }
}

/** A throwaway Redis started for one test run. */
interface ThrowawayRedis {
  url: string;
  stop(): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function startRedis(): Promise<ThrowawayRedis> {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "policyd-test-redis-" });
  const child = new Deno.Command("redis-server", {
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    cwd: dir,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers("127.0.0.1", port))) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer on 127.0.0.1:${port} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.error(`prerequisites: started a throwaway redis-server on 127.0.0.1:${port}`);
  return { url: `redis://127.0.0.1:${port}`, stop };
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { check: { type: "boolean", default: false } },
    allowPositionals: true,
    strict: true,
  });
  const plan = planPreparation(await gatherFacts());
  if (plan.missing.length > 0) {
    for (const line of plan.missing) console.error(`prerequisites: ${line}`);
    console.error("prerequisites: no test was run");
    return 1;
  }
  if (values.check) {
    console.error(
      plan.steps.length === 0
        ? "prerequisites: all present"
        : `prerequisites: would ${plan.steps.map(describe).join(", then ")}`,
    );
    return 0;
  }
  let redis: ThrowawayRedis | undefined;
  const stopRedis = async () => {
    const running = redis;
    redis = undefined;
    await running?.stop();
  };
  const onSignal = () => {
    stopRedis().finally(() => Deno.exit(130));
  };
  try {
    for (const step of plan.steps) {
      if (step.kind === "install") await aptInstall(step.debianPackage);
      else redis = await startRedis();
    }
    if (positionals.length === 0) return 0;
    Deno.addSignalListener("SIGINT", onSignal);
    Deno.addSignalListener("SIGTERM", onSignal);
    const [command, ...rest] = positionals;
    const child = new Deno.Command(command === "deno" ? Deno.execPath() : command, {
      args: rest,
      env: { [TEST_REDIS_URL_ENV]: redis?.url ?? configuredRedisUrl() },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    return (await child.status).code;
  } finally {
    await stopRedis();
  }
}

function describe(step: PreparationStep): string {
  return step.kind === "install"
    ? `install ${step.debianPackage}`
    : "start a throwaway redis-server";
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    console.error(`prerequisites: ${(error as Error).message}; no test was run`);
    Deno.exit(1);
  }
}
