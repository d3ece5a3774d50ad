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
  scanner?: unknown;
  upstreams?: unknown;
}

/** The scanner object of `/health` in a few words: `off`, or its schedule and last pass. */
export function describeScanner(scanner: unknown): string {
  if (typeof scanner === "string") return scanner;
  if (typeof scanner !== "object" || scanner === null) return "?";
  const s = scanner as Record<string, unknown>;
  if (s.enabled === false) return "off";
  const last = typeof s.last_finished_at === "string"
    ? `last pass ${s.last_finished_at}${typeof s.last_error === "string" ? " failed" : ""}`
    : "no pass yet";
  return `on (${s.schedule ?? "?"}, ${s.running === true ? "running, " : ""}${last})`;
}

/** The upstreams of `/health` in a few words: `osv ok, pypi failing (skipped until …)`. */
export function describeUpstreams(upstreams: unknown): string | null {
  if (typeof upstreams !== "object" || upstreams === null) return null;
  return Object.entries(upstreams as Record<string, Record<string, unknown> | null>)
    .map(([name, state]) =>
      `${name} ${state?.status ?? "?"}` +
      (state?.breaker === "open" ? ` (skipped until ${state.retry_at})` : "")
    ).join(", ");
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
  if (h.scanner !== undefined) parts.push(`scanner ${describeScanner(h.scanner)}`);
  const upstreams = describeUpstreams(h.upstreams);
  if (upstreams) parts.push(`upstreams ${upstreams}`);
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
