import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "./sqlite.ts";
import type { NewAuditRow } from "./types.ts";
import { queryDb } from "../../tests/helpers/db.ts";
import { auditRow } from "../../tests/helpers/audit_rows.ts";

const row = (pkg: string, extra: Partial<NewAuditRow> = {}): NewAuditRow =>
  auditRow({ package: pkg, project: "p", registry_version: "v1", reason: "", ...extra });

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
});

Deno.test("concurrent inserts are group-committed and each resolves with its own id after commit", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "b.db");
  const store = openSqliteStore(path);
  const stored = await Promise.all(
    Array.from({ length: 50 }, (_, i) => store.audit.insert(row(`pkg-${i}`))),
  );
  deepStrictEqual(stored.map((r) => r.package), Array.from({ length: 50 }, (_, i) => `pkg-${i}`));
  equal(new Set(stored.map((r) => r.id)).size, 50);
  // Another connection sees every row: they were committed.
  equal(queryDb(path, "SELECT COUNT(*) AS n FROM audit_log")[0].n, 50);
  await store.close();
});

Deno.test("group() rolls up counts, projects and CVE ids; 'cve' explodes cve_ids", async () => {
  const store = openSqliteStore(":memory:");
  await store.audit.insertMany([
    row("a", { project: "x", cve_ids: ["CVE-1", "CVE-2"], max_cvss: 9.0, verdict: "DENIED" }),
    row("a", { project: "y", cve_ids: ["CVE-2"], max_cvss: 7.0, verdict: "DENIED" }),
    row("b", { project: "x", cve_ids: [], max_cvss: null }),
  ]);
  const byPackage = await store.audit.group({}, ["package"]);
  deepStrictEqual(byPackage[0].keys, { package: "a" });
  equal(byPackage[0].count, 2);
  equal(byPackage[0].max_cvss, 9.0);
  deepStrictEqual(byPackage[0].projects, ["x", "y"]);
  deepStrictEqual(byPackage[0].cve_ids, ["CVE-1", "CVE-2"]);
  const byCve = await store.audit.group({}, ["cve"]);
  deepStrictEqual(byCve.map((g) => [g.keys.cve, g.count]), [["CVE-2", 2], ["CVE-1", 1]]);
  const bySeverity = await store.audit.group({}, ["severity"]);
  deepStrictEqual(Object.fromEntries(bySeverity.map((g) => [g.keys.severity, g.count])), {
    critical: 1,
    high: 1,
    unknown: 1,
  });
  await store.close();
});

Deno.test("approval requests: create, list by filter, approve pending packages, record proposal", async () => {
  let t = 0;
  const store = openSqliteStore(":memory:", {
    now: () => new Date(Date.UTC(2026, 10, 21, 0, 0, t++)),
  });
  const base = {
    version: null,
    requester: "local",
    rationale: "needed",
    agent_model: null,
    agent_version: null,
  };
  const a = await store.approvals.create({ ...base, package: "left-pad", project: "p1" });
  await store.approvals.create({ ...base, package: "left-pad", project: "p2" });
  await store.approvals.create({ ...base, package: "other", project: "p1" });
  equal(a.status, "PENDING_REVIEW");
  equal((await store.approvals.list({ project: "p1" })).length, 2);
  equal(await store.approvals.approvePackages(["left-pad"], "2026-11-22T00:00:00.000Z"), 2);
  equal(await store.approvals.approvePackages(["left-pad"], "2026-11-22T00:00:00.000Z"), 0);
  const approved = await store.approvals.list({ status: "APPROVED" });
  equal(approved.length, 2);
  equal(approved[0].decided_at, "2026-11-22T00:00:00.000Z");
  await store.approvals.recordProposal(a.id, "failed", "push rejected");
  const [again] = await store.approvals.list({ package: "left-pad", project: "p1" });
  equal(again.proposal_status, "failed");
  equal(again.proposal_detail, "push rejected");
  await store.close();
});

Deno.test("healthy() turns false after close", async () => {
  const store = openSqliteStore(":memory:");
  equal(await store.healthy(), true);
  await store.close();
  equal(await store.healthy(), false);
});
