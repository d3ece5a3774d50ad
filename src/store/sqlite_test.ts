import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
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
  deepStrictEqual(migrations.map((m) => m.version), [1, 2]);
  equal(queryDb(path, "PRAGMA journal_mode")[0].journal_mode, "wal");
  const tables = queryDb(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .map((t) => t.name);
  ok(
    tables.includes("audit_log") && tables.includes("approval_requests") &&
      tables.includes("schema_migrations"),
  );
  const indexes = queryDb(
    path,
    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log'",
  );
  ok(indexes.length >= 5, "indexes for the report queries");
  await Deno.remove(dir, { recursive: true });
});
