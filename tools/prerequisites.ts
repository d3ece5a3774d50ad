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

/** The environment variable the Redis tests read their server URL from. */
export const TEST_REDIS_URL_ENV = "POLICYD_TEST_REDIS_URL";

/** Where Redis is expected when nothing else is configured. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** The environment variable naming the PostgreSQL server of the tests (no database path). */
export const TEST_POSTGRES_ENV = "POLICYD_TEST_POSTGRES";

/** Where PostgreSQL is expected when nothing else is configured. */
export const DEFAULT_TEST_POSTGRES = "postgres://postgres@127.0.0.1:5432";

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** Debian packages of tools the tests run, one line each: package → why. */
export const DEBIAN_TOOLS = {
  "python3-pip": "the policy index tests install real wheels with Debian's pip",
  "python3-venv": "the policy index tests create a fresh virtual environment",
} as const;

/** One of {@link DEBIAN_TOOLS}. */
export type DebianTool = keyof typeof DEBIAN_TOOLS;

/** What the machine looks like, gathered before deciding. */
export interface MachineFacts {
  /** Redis answers PING on the default URL. */
  redisAnswers: boolean;
  /** `redis-server` is on the PATH. */
  redisServerInstalled: boolean;
  /** The pre-commit framework's `pre-commit` is on the PATH. */
  precommitInstalled: boolean;
  /** Where the browser tests look for Chromium. */
  chromiumPath: string;
  chromiumPresent: boolean;
  /** Running as root with `apt-get` available: Debian packages can be installed. */
  canInstallPackages: boolean;
  /** The PostgreSQL server the tests use, as `postgres://user@host:port`. */
  postgresServer: string;
  /** It accepts TCP connections. */
  postgresAnswers: boolean;
  /** Packages of {@link DEBIAN_TOOLS} not installed; absent = none. */
  debianToolsMissing?: DebianTool[];
}

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

/** Whether something accepts TCP connections at `host:port` (PostgreSQL's readiness, as pg_isready sees it). */
export async function acceptsConnections(hostname: string, port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname, port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** Whether a Redis server answers `PING` at `host:port`. */
export async function redisAnswers(hostname: string, port: number): Promise<boolean> {
  let conn: Deno.TcpConn | undefined;
  try {
    conn = await Deno.connect({ hostname, port });
    await conn.write(new TextEncoder().encode("PING\r\n"));
    const buffer = new Uint8Array(64);
    const timer = setTimeout(() => conn?.close(), 2000);
    const read = await conn.read(buffer).catch(() => null);
    clearTimeout(timer);
    return read !== null && new TextDecoder().decode(buffer.subarray(0, read)).startsWith("+PONG");
  } catch {
    return false;
  } finally {
    try {
      conn?.close();
    } catch { /* already closed by the timeout */ }
  }
}

function onPath(command: string): boolean {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir === "") continue;
    try {
      if (Deno.statSync(`${dir}/${command}`).isFile) return true;
    } catch { /* not here */ }
  }
  return false;
}

/** Whether Debian reports the package installed (`dpkg-query`). */
async function debianInstalled(debianPackage: string): Promise<boolean> {
  try {
    const out = await new Deno.Command("dpkg-query", {
      args: ["-W", "-f=${Status}", debianPackage],
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(out.stdout).endsWith("installed");
  } catch {
    return false;
  }
}

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The Redis the tests use unless a throwaway one is started: `POLICYD_TEST_REDIS_URL` or the default. */
function configuredRedisUrl(): string {
  return Deno.env.get(TEST_REDIS_URL_ENV) || DEFAULT_REDIS_URL;
}

async function gatherFacts(): Promise<MachineFacts> {
  const chromiumPath = Deno.env.get("CHROMIUM_PATH") || DEBIAN_CHROMIUM;
  const redis = new URL(configuredRedisUrl());
  const postgresServer = Deno.env.get(TEST_POSTGRES_ENV) || DEFAULT_TEST_POSTGRES;
  const postgres = new URL(postgresServer);
  return {
    postgresServer,
    postgresAnswers: await acceptsConnections(postgres.hostname, Number(postgres.port || 5432)),
    redisAnswers: await redisAnswers(redis.hostname, Number(redis.port || 6379)),
    redisServerInstalled: onPath("redis-server"),
    precommitInstalled: onPath("pre-commit"),
    chromiumPath,
    chromiumPresent: fileExists(chromiumPath),
    canInstallPackages: Deno.uid() === 0 && onPath("apt-get"),
    debianToolsMissing: (await Promise.all(
      (Object.keys(DEBIAN_TOOLS) as DebianTool[]).map(async (t) =>
        (await debianInstalled(t)) ? null : t
      ),
    )).filter((t): t is DebianTool => t !== null),
  };
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
