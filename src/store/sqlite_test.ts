import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sqliteGroup } from "./sqlite_group.ts";
import { openSqliteStore, WAL_AUTOCHECKPOINT_PAGES } from "./sqlite.ts";
import { auditRow } from "../../tests/helpers/audit_rows.ts";
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
  deepStrictEqual(migrations.map((m) => m.version), [1, 2, 3, 4, 5, 6, 7]);
  equal(queryDb(path, "PRAGMA journal_mode")[0].journal_mode, "wal");
  const tables = queryDb(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .map((t) => t.name);
  ok(
    tables.includes("audit_log") && tables.includes("approval_requests") &&
      tables.includes("schema_migrations") && tables.includes("registry_changes"),
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

Deno.test("the WAL is checkpointed every WAL_AUTOCHECKPOINT_PAGES, not at SQLite's default 1000 pages", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "wal.db");
  const store = openSqliteStore(path);
  try {
    const pageSize = Number(queryDb(path, "PRAGMA page_size")[0].page_size);
    // Many small commits touching many index pages, as group commits do under load.
    for (let commit = 0; commit < 400; commit++) {
      await store.audit.insertMany(
        Array.from(
          { length: 14 },
          (_, i) =>
            auditRow({ package: `package-${(commit * 131 + i * 977) % 5000}`, project: `p${i}` }),
        ),
      );
    }
    const walPages = Deno.statSync(`${path}-wal`).size / pageSize;
    ok(walPages > 1100, `the WAL reached ${walPages.toFixed(0)} pages: no checkpoint at 1000`);
    ok(walPages < WAL_AUTOCHECKPOINT_PAGES + 200, `the WAL stays near its mark (${walPages})`);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
