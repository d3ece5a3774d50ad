/**
 * `policyd selftest [--url BASE]`: probes `BASE/api/v1/health` with a
 * time-out and reports what it found. Exit 0 when the server answers healthy,
 * 1 otherwise (unreachable, time-out, 503, not policyd). Used as the
 * container HEALTHCHECK, since the Deno image has no curl.
 *
 * @module
 */
import { CommandError, type CommandIO, EXIT_USAGE } from "../io.ts";

/** Options of `selftest`. */
export interface SelftestOptions {
  url: string;
  timeoutMs: number;
}

/** Default base URL (quickstart's address). */
export const DEFAULT_SELFTEST_URL = "http://127.0.0.1:8765";

/** The health URL of a base URL (a trailing slash or an `/api/v1` suffix is tolerated). */
export function healthUrl(base: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new CommandError(
      `invalid --url "${base}": expected a base URL such as ${DEFAULT_SELFTEST_URL}`,
      EXIT_USAGE,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CommandError(`invalid --url "${base}": expected http:// or https://`, EXIT_USAGE);
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1(\/health)?$/, "");
  return new URL(`${path}/api/v1/health`, url.origin);
}

interface Health {
  status?: string;
  version?: string;
  registry_version?: string;
  package_count?: number;
  db?: string;
  cache?: string;
  proposer?: string;
  scanner?: string;
}

function describe(h: Health): string {
  const parts = [
    `version ${h.version ?? "?"}`,
    `registry ${h.registry_version ?? "?"}${
      h.package_count === undefined ? "" : ` (${h.package_count} packages)`
    }`,
    `db ${h.db ?? "?"}`,
    `cache ${h.cache ?? "?"}`,
  ];
  if (h.proposer) parts.push(`proposer ${h.proposer}`);
  if (h.scanner) parts.push(`scanner ${h.scanner}`);
  return parts.join(", ");
}

/** Runs `selftest`. */
export async function selftest(options: SelftestOptions, io: CommandIO): Promise<number> {
  const url = healthUrl(options.url);
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: { accept: "application/json" },
    });
  } catch (error) {
    const reason = (error as Error)?.name === "TimeoutError"
      ? `no answer within ${options.timeoutMs} ms`
      : (error as Error)?.message?.split("\n")[0] ?? String(error);
    io.stderr(`policyd selftest: ${url} is not reachable: ${reason}\n`);
    return 1;
  }
  let body: Health | undefined;
  try {
    body = await response.json() as Health;
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== "object" || typeof body.status !== "string") {
    io.stderr(
      `policyd selftest: ${url} answered HTTP ${response.status} without a policyd health document\n`,
    );
    return 1;
  }
  if (response.ok && body.status === "ok") {
    io.stdout(`policyd at ${url.origin} is alive: ${describe(body)}\n`);
    return 0;
  }
  io.stderr(
    `policyd selftest: ${url} answered HTTP ${response.status}, status ${body.status}: ${
      describe(body)
    }\n`,
  );
  return 1;
}
