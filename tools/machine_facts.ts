/**
 * What the test suite's prerequisites look like on this machine: where Redis,
 * PostgreSQL and Chromium are expected, and the probes that gather the facts
 * `prerequisites.ts` decides from.
 *
 * @module
 */

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
export function configuredRedisUrl(): string {
  return Deno.env.get(TEST_REDIS_URL_ENV) || DEFAULT_REDIS_URL;
}

/** What the machine looks like now. */
export async function gatherFacts(): Promise<MachineFacts> {
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
