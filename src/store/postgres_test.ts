import { deepStrictEqual, equal } from "node:assert/strict";
import postgres from "postgres";
import { storeContract } from "./contract_test_suite.ts";
import { postgresGroup } from "./postgres_group.ts";
import { openPostgresStore } from "./postgres.ts";
import { migrationState } from "./postgres_connection.ts";
import { createScratchDatabase, queryPostgres } from "../../tests/helpers/postgres.ts";

storeContract("postgres", async ({ now }) => {
  const db = await createScratchDatabase("contract");
  const store = await openPostgresStore(db.url, { now });
  const raw = postgres(db.url, { max: 1, onnotice: () => {} });
  return {
    store,
    rawGroup: (filter, by) => postgresGroup(raw, filter, by),
    storedRollupBuckets: async () =>
      Number((await queryPostgres(db.url, "SELECT COUNT(*) AS n FROM audit_rollup_buckets"))[0].n),
    committedAuditRows: async () =>
      Number((await queryPostgres(db.url, "SELECT COUNT(*) AS n FROM audit_log"))[0].n),
    dispose: async () => {
      await store.close();
      await raw.end({ timeout: 1 });
      await db.drop();
    },
  };
});

Deno.test("openPostgresStore() migrates once even when instances start together", async () => {
  const db = await createScratchDatabase("migrate");
  try {
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore(db.url)));
    const state = await migrationState(stores[0].sql);
    deepStrictEqual(state.pending, []);
    deepStrictEqual(state.applied, state.known);
    for (const store of stores) await store.close();
    const rows = await queryPostgres(db.url, "SELECT version FROM schema_migrations");
    equal(rows.length, state.known.length);
    const tables = (await queryPostgres(
      db.url,
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    )).map((r) => r.tablename);
    deepStrictEqual(tables, [
      "alert_outbox",
      "approval_requests",
      "audit_log",
      "audit_rollup",
      "audit_rollup_buckets",
      "registry_changes",
      "scanner_passes",
      "schema_migrations",
    ]);
  } finally {
    await db.drop();
  }
});

Deno.test("a batch of 2,500 rows commits as multi-row inserts in one transaction", async () => {
  const db = await createScratchDatabase("batch");
  const store = await openPostgresStore(db.url);
  try {
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      package: `p${i}`,
      version: null,
      license: null,
      verdict: "ALLOWED" as const,
      project: "x",
      requester: "r",
      agent_model: null,
      agent_version: null,
      source: "api",
      denial_category: null,
      cve_ids: [],
      max_cvss: null,
      registry_status: null,
      registry_version: null,
      license_raw: null,
      reason: "",
    }));
    const stored = await store.audit.insertMany(rows);
    equal(stored.length, 2500);
    equal(stored[2499].package, "p2499");
    const [last] = await store.audit.list({ package: "p2499" }, 1);
    equal(last.id, stored[2499].id);
  } finally {
    await store.close();
    await db.drop();
  }
});
