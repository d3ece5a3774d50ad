/**
 * Graceful shutdown of a real `policyd serve` process: SIGTERM while many
 * evaluations are in flight. The server stops accepting, finishes what it
 * accepted, closes the database and exits 0 — and every 200 response the
 * clients received has its audit row (and no row lacks a response).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { spawnServe } from "../helpers/serve_process.ts";
import { auditCount } from "../helpers/db.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";

const PACKAGES = [
  "requests",
  "flask",
  "numpy",
  "left-pad-py",
  "not-in-registry",
  "pycrypto",
  "django",
];

/** Reads lines of `stream` until one matches; the rest of the stream keeps draining. */
async function waitForLine(
  stream: ReadableStream<Uint8Array>,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const match = buffer.match(pattern);
    if (match) {
      (async () => {
        while (!(await reader.read()).done) { /* drain */ }
      })();
      return match;
    }
  }
  throw new Error(`the server did not print ${pattern}; output so far: ${buffer}`);
}

Deno.test("SIGTERM with evaluations in flight loses no audit row and exits 0", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-shutdown-" });
  const upstream = await startFakeUpstream();
  // Slow upstreams keep evaluations in flight once lookups run against them.
  upstream.osv.latencyMs = 150;
  upstream.pypi.latencyMs = 150;
  const dbPath = join(dir, "policyd.db");
  await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
  const child = spawnServe({
    cwd: dir,
    env: {
      POLICY_DB_PATH: dbPath,
      REGISTRY_PATH: join(dir, "registry.yaml"),
      REGISTRY_RELOAD_INTERVAL: "1",
      REDIS_URL: "none",
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      LOOKUP_TIMEOUT_MS: "2000",
      CVE_SCAN_SCHEDULE: "off",
      LOG_LEVEL: "warn",
    },
  });
  const stderr = new Response(child.stderr).text();
  try {
    const [, url] = await waitForLine(child.stdout, /listening on (http:\/\/\S+)/, 60_000);

    let ok = 0;
    const otherStatuses: number[] = [];
    let stop = false;
    let signalled = false;
    let okAfterSignal = 0;
    let started = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const pkg = PACKAGES[(w + i) % PACKAGES.length];
        started++;
        let response: Response;
        try {
          response = await fetch(`${url}/api/v1/evaluate?package=${pkg}&version=1.0.${i}`);
        } catch {
          return; // the server stopped accepting: this request was never served
        }
        await response.body?.cancel();
        if (response.status === 200) {
          ok++;
          if (signalled) okAfterSignal++;
        } else otherStatuses.push(response.status);
      }
    };
    const workers = Array.from({ length: 24 }, (_, w) => worker(w));
    // Let the load build up, then ask the server to stop mid-flight.
    while (ok < 30) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    signalled = true;
    const status = await Promise.race([
      child.status,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("no exit within 20 s")), 20_000)
      ),
    ]);
    stop = true;
    await Promise.all(workers);

    assert.equal(status.code, 0, await stderr);
    assert.deepEqual(otherStatuses, [], "in-flight requests finish normally");
    assert.ok(started > ok, "some requests were still being sent when the server stopped");
    assert.ok(okAfterSignal > 0, "requests in flight at the signal were answered");
    assert.equal(auditCount(dbPath), ok, "one audit row per 200 response, none lost, none extra");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await child.status;
    await stderr;
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
