import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sqliteGroup } from "./sqlite_group.ts";
import { openSqliteStore } from "./sqlite.ts";
import { storeContract } from "./contract_test_suite.ts";
import { auditCount, queryDb } from "../../tests/helpers/db.ts";

storeContract("sqlite", async ({ now }) => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "contract.db");
  const store = openSqliteStore(path, { now });
  return {
    store,
    committedAuditRows: () => Promise.resolve(auditCount(path)),
    rawGroup: (filter, by) =>
      Promise.resolve().then(() => {
        const db = new DatabaseSync(path, { readOnly: true });
        try {
          return sqliteGroup(db, filter, by);
        } finally {
          db.close();
        }
      }),
    storedRollupBuckets: () =>
      Promise.resolve(Number(queryDb(path, "SELECT COUNT(*) AS n FROM audit_rollup_buckets")[0].n)),
    dispose: async () => {
      await store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
});

Deno.test("openSqliteStore() migrates once, uses WAL and records schema_migrations", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "a.db");
  await openSqliteStore(path).close();
  await openSqliteStore(path).close();
  const migrations = queryDb(path, "SELECT version FROM schema_migrations");
  deepStrictEqual(migrations.map((m) => m.version), [1, 2, 3, 4]);
  equal(queryDb(path, "PRAGMA journal_mode")[0].journal_mode, "wal");
  const tables = queryDb(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .map((t) => t.name);
  ok(
    tables.includes("audit_log") && tables.includes("approval_requests") &&
      tables.includes("schema_migrations"),
  );
  const indexes = queryDb(
    path,
    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' AND sql IS NOT NULL ORDER BY name",
  ).map((i) => i.name);
  deepStrictEqual(indexes, [
    "audit_log_agent_ts",
    "audit_log_denials_ts",
    "audit_log_package_ts",
    "audit_log_project_ts",
    "audit_log_ts",
    "audit_log_verdict_ts",
  ]);
  // The partial indexes serve the filters the reports and GET /audit send (bound parameters).
  const plan = (sql: string, ...params: string[]) =>
    queryDb(path, `EXPLAIN QUERY PLAN ${sql}`, ...params).map((row) => String(row.detail)).join(
      " ",
    );
  ok(
    /audit_log_denials_ts/.test(
      plan(
        "SELECT COUNT(*) FROM audit_log WHERE ts >= ? AND denial_category IN (?, ?)",
        "2026-01-01",
        "DENIAL_CVE",
        "DENIAL_LICENSE",
      ),
    ),
  );
  ok(/audit_log_agent_ts/.test(plan("SELECT * FROM audit_log WHERE agent_model = ?", "claude")));
  await Deno.remove(dir, { recursive: true });
});
