/**
 * What the HTTP benchmarks share: server processes spawned from this
 * checkout, `wrk` runs with the server's CPU time per request, warm-up and
 * medians.
 *
 * @module
 */

const REPO = new URL("../../", import.meta.url).pathname;

/** A server process under test. */
export interface Target {
  name: string;
  url: string;
  process: Deno.ChildProcess;
}

/** Spawns `deno args…` and resolves with its URL (plus `path`) once it prints a listening line. */
export async function spawnServer(
  name: string,
  args: string[],
  env: Record<string, string>,
  path: string,
  cwd = REPO,
): Promise<Target> {
  const process = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
    const port = seen.match(/listening (\d+)/)?.[1];
    const url = seen.match(/listening on (http:\/\/\S+)/)?.[1];
    if (port || url) {
      // Keep draining stdout so the child never blocks on a full pipe.
      (async () => {
        while (!(await reader.read()).done) { /* drain */ }
      })().catch(() => {});
      return { name, url: (url ?? `http://127.0.0.1:${port}`) + path, process };
    }
  }
  process.kill("SIGKILL");
  throw new Error(`${name} did not start: ${seen}`);
}

/** Result of one wrk run. */
export interface WrkResult {
  rps: number;
  requests: number;
  errors: number;
  /** CPU time of the server process per answered request, µs (null off Linux). */
  cpuPerRequestUs: number | null;
}

/** How wrk loads a server. */
export interface WrkOptions {
  wrk: string;
  threads: number;
  connections: number;
  seconds: number;
  /** Extra request headers (`Name: value`). */
  headers?: string[];
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds of process `pid` so far, every thread included; null off Linux. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Fields after the command name (which may contain spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Loads `url` with wrk; `pid` is the server whose CPU time is read around the run. */
export async function wrk(url: string, pid: number, options: WrkOptions): Promise<WrkResult> {
  const cpuBefore = processCpuSeconds(pid);
  const headers = (options.headers ?? []).flatMap((h) => ["-H", h]);
  const out = await new Deno.Command(options.wrk, {
    args: [
      `-t${options.threads}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      ...headers,
      url,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`wrk failed: ${new TextDecoder().decode(out.stderr)}`);
  const rps = Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const requests = Number(text.match(/(\d+) requests in/)?.[1]);
  const non2xx = Number(text.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const socket = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const errors = non2xx + (socket ? socket.slice(1).map(Number).reduce((a, b) => a + b, 0) : 0);
  if (!Number.isFinite(rps)) throw new Error(`cannot read wrk output:\n${text}`);
  const cpuAfter = processCpuSeconds(pid);
  const cpuPerRequestUs = cpuBefore === null || cpuAfter === null || requests === 0
    ? null
    : (cpuAfter - cpuBefore) * 1e6 / requests;
  return { rps, requests, errors, cpuPerRequestUs };
}

/** Requests `url` `times` times; every answer must be 200. */
export async function warm(url: string, times: number, headers: HeadersInit = {}): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  }
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Stops every target (SIGTERM) and waits for each to exit. */
export async function stopAll(targets: Target[]): Promise<void> {
  for (const target of targets) {
    target.process.kill("SIGTERM");
    await target.process.status;
  }
}

/**
 * The load generator to use (`BENCH_WRK`, default `wrk` on the PATH). When it
 * cannot be run, prints one line naming how to get it and exits 1 before any
 * server starts.
 */
export async function requireWrk(): Promise<string> {
  const wrk = Deno.env.get("BENCH_WRK") ?? "wrk";
  try {
    await new Deno.Command(wrk, { args: ["-v"], stdout: "null", stderr: "null" }).output();
    return wrk;
  } catch {
    console.error(
      `bench: the load generator '${wrk}' cannot be run; install it (Debian: apt-get install wrk) or set BENCH_WRK`,
    );
    Deno.exit(1);
  }
}

/**
 * The settings of a bench's `compare` target from `BENCH_COMPARE_ENV`
 * ("NAME=VALUE …"); throws on a word without `=`.
 */
export function compareEnv(): Record<string, string> {
  return Object.fromEntries(
    (Deno.env.get("BENCH_COMPARE_ENV") ?? "").split(/\s+/).filter(Boolean).map((pair) => {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new Error(`BENCH_COMPARE_ENV: expected NAME=VALUE, got ${pair}`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}
