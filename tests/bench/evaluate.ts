/**
 * Throughput of `GET /api/v1/evaluate` (registry hit, audit row committed)
 * next to a bare Hono route served the same way, in the same process and
 * run. Prints evaluations/s for both and their ratio. Run: `deno task bench`.
 *
 * @module
 */
import { Hono } from "hono";
import { join } from "node:path";
import { loadSettings } from "../../src/config/settings.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { buildServer } from "../../src/server.ts";

const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 4000);
const CONCURRENCY = Number(Deno.env.get("BENCH_CONCURRENCY") ?? 32);

type Handler = (req: Request) => Response | Promise<Response>;

async function overSocket(handler: Handler, path: string): Promise<number> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const url = `http://127.0.0.1:${server.addr.port}${path}`;
  // Warm-up, then a bounded measured run.
  for (let i = 0; i < 200; i++) await (await fetch(url)).arrayBuffer();
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < REQUESTS) {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await server.shutdown();
  return REQUESTS / seconds;
}

async function inProcess(handler: Handler, path: string): Promise<number> {
  const url = `http://localhost${path}`;
  for (let i = 0; i < 200; i++) await (await handler(new Request(url))).arrayBuffer();
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) await (await handler(new Request(url))).arrayBuffer();
  return REQUESTS / ((performance.now() - started) / 1000);
}

const dir = await Deno.makeTempDir({ prefix: "policyd-bench-" });
await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
const settings = loadSettings({
  POLICY_DB_PATH: join(dir, "bench.db"),
  REGISTRY_PATH: join(dir, "registry.yaml"),
  REGISTRY_RELOAD_INTERVAL: "0",
  CVE_SCAN_SCHEDULE: "off",
  REDIS_URL: "none",
});
const built = await buildServer(settings, {
  log: silentLogger,
  accessLog: false,
  background: false,
});
const bare = new Hono();
bare.get("/bare", (c) => c.json({ ok: true }));

const evaluatePath = "/api/v1/evaluate?package=requests&version=2.32.3";
const rows: Array<[string, number, number]> = [];
for (const [mode, measure] of [["socket", overSocket], ["in-process", inProcess]] as const) {
  const bareRate = await measure(bare.fetch, "/bare");
  const evalRate = await measure(built.app.fetch, evaluatePath);
  rows.push([mode, bareRate, evalRate]);
}
const audit = await built.store.audit.group({}, []);
await built.close();
await Deno.remove(dir, { recursive: true });

console.log(
  `policyd evaluate benchmark: ${REQUESTS} requests per measurement, concurrency ${CONCURRENCY} over the socket`,
);
console.log("mode        bare Hono req/s   /api/v1/evaluate req/s   ratio");
for (const [mode, bareRate, evalRate] of rows) {
  console.log(
    `${mode.padEnd(11)} ${bareRate.toFixed(0).padStart(15)}   ${
      evalRate.toFixed(0).padStart(22)
    }   ${(evalRate / bareRate * 100).toFixed(1)}%`,
  );
}
console.log(`audit rows written: ${audit[0]?.count ?? 0}`);
