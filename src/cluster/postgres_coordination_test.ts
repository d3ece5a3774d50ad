import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { postgresCoordination } from "./postgres_coordination.ts";
import type { ReloadAnnouncement } from "./coordination.ts";
import { openPostgresStore } from "../store/postgres.ts";
import { startScanner } from "../scanner/schedule.ts";
import { silentLogger } from "../log/logger.ts";
import { createScratchDatabase, queryPostgres } from "../../tests/helpers/postgres.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two instances (two pools) on one scratch database. */
async function twoInstances(label: string) {
  const db = await createScratchDatabase(label);
  const stores = [await openPostgresStore(db.url), await openPostgresStore(db.url)];
  const [a, b] = stores.map((s, i) => postgresCoordination(s.sql, `node-${i}`, silentLogger));
  return {
    db,
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      for (const store of stores) await store.close();
      await db.drop();
    },
  };
}

Deno.test("a reload announced by one instance reaches the other, not itself", async () => {
  const cluster = await twoInstances("notify");
  try {
    const seenByA: ReloadAnnouncement[] = [];
    const seenByB: ReloadAnnouncement[] = [];
    await cluster.a.onReload((x) => seenByA.push(x));
    await cluster.b.onReload((x) => seenByB.push(x));
    await cluster.a.announceReload("2026.11.23");
    const deadline = Date.now() + 5000;
    while (seenByB.length === 0 && Date.now() < deadline) await sleep(10);
    deepStrictEqual(seenByB, [{ instance: "node-0", version: "2026.11.23" }]);
    await cluster.b.announceReload("2026.11.24");
    while (seenByA.length === 0 && Date.now() < deadline) await sleep(10);
    deepStrictEqual(seenByA, [{ instance: "node-1", version: "2026.11.24" }]);
    equal(seenByB.length, 1, "an instance does not follow its own announcement");
  } finally {
    await cluster.close();
  }
});

Deno.test("exactly one instance wins a tick's claim; health reads the winner's record", async () => {
  const cluster = await twoInstances("claim");
  try {
    const tick = new Date("2026-11-23T12:00:00.000Z");
    const claims = await Promise.all([
      cluster.a.claimScanTick(tick),
      cluster.b.claimScanTick(tick),
    ]);
    equal(claims.filter(Boolean).length, 1);
    const winner = claims[0] ? cluster.a : cluster.b;
    await winner.finishScanTick(tick, { rows: 3, error: null });
    const last = await cluster.b.lastScanPass();
    equal(last?.instance, winner.instance);
    equal(last?.tick, tick.toISOString());
    equal(last?.rows, 3);
    ok(last?.finished_at);
  } finally {
    await cluster.close();
  }
});

Deno.test("two scanners on one database run one pass per tick between them", async () => {
  const cluster = await twoInstances("scan");
  Deno.env.set("DENO_CRON_TEST_SCHEDULE_OFFSET", "50");
  const passes: string[] = [];
  // Both clocks read the same minute, as two instances' cron timers firing together do.
  const now = () => new Date("2026-11-23T12:00:30.000Z");
  const scanners = [cluster.a, cluster.b].map((coordination, i) =>
    startScanner({
      schedule: "* * * * *",
      runPass: () => (passes.push(coordination.instance), Promise.resolve(0)),
      log: silentLogger,
      name: `coordination-test-${i}-${crypto.randomUUID()}`,
      coordination,
      now,
    })
  );
  try {
    await sleep(1500); // each cron job fires many times in this window
  } finally {
    for (const scanner of scanners) await scanner.stop();
    Deno.env.delete("DENO_CRON_TEST_SCHEDULE_OFFSET");
  }
  try {
    equal(passes.length, 1, `passes: ${passes.join(", ")}`);
    const rows = await queryPostgres(cluster.db.url, "SELECT instance, rows FROM scanner_passes");
    deepStrictEqual(rows.map((r) => ({ ...r })), [{ instance: passes[0], rows: 0 }]);
  } finally {
    await cluster.close();
  }
});
