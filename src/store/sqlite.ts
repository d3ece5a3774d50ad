/**
 * The SQLite store (`node:sqlite`, WAL mode): audit log and approval
 * requests. Every write commits before its promise resolves.
 *
 * @module
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { setImmediate } from "node:timers";
import { MIGRATIONS } from "./migrations.ts";
import type {
  ApprovalFilter,
  ApprovalRequest,
  ApprovalStatus,
  AuditFilter,
  AuditGroup,
  AuditGroupKey,
  AuditRow,
  NewApprovalRequest,
  NewAuditRow,
  Store,
} from "./types.ts";

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  /** Clock for row timestamps; injectable so documents and tests are reproducible. */
  now?: () => Date;
  /**
   * Most single audit inserts one group commit takes (default 256); more
   * pending rows commit at once instead of waiting for the next turn.
   */
  maxBatchRows?: number;
}

const GROUP_COLUMNS: Record<AuditGroupKey, string> = {
  package: "package",
  project: "project",
  license: "license",
  verdict: "verdict",
  agent_model: "agent_model",
  agent_version: "agent_version",
  source: "source",
  severity: `CASE WHEN max_cvss >= 9.0 THEN 'critical' WHEN max_cvss >= 7.0 THEN 'high'
    WHEN max_cvss >= 4.0 THEN 'medium' WHEN max_cvss >= 0.1 THEN 'low' ELSE 'unknown' END`,
  cve: "cve.value",
  day: "substr(ts, 1, 10)",
  category: "denial_category",
};

type Row = Record<string, SQLInputValue>;

function migrate(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as Row[]).map((r) =>
      Number(r.version)
    ),
  );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
        .run(migration.version, migration.name, new Date().toISOString());
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
}

function whereClause(filter: AuditFilter): { sql: string; params: SQLInputValue[] } {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  const inList = (column: string, values: readonly string[]) => {
    if (values.length === 0) {
      parts.push("0");
      return;
    }
    parts.push(`${column} IN (${values.map(() => "?").join(", ")})`);
    params.push(...values);
  };
  if (filter.since) (parts.push("ts >= ?"), params.push(filter.since));
  if (filter.project) (parts.push("project = ?"), params.push(filter.project));
  if (filter.package) (parts.push("package = ?"), params.push(filter.package));
  if (filter.license !== undefined) (parts.push("license = ?"), params.push(filter.license));
  if (filter.hasLicense) parts.push("license IS NOT NULL");
  if (filter.dataUnavailable) {
    parts.push("json_extract(data, ?) = 'unavailable'");
    params.push(`$.${filter.dataUnavailable}.status`);
  }
  if (filter.verdicts) inList("verdict", filter.verdicts);
  if (filter.categories) inList("denial_category", filter.categories);
  if (filter.packages) inList("package", filter.packages);
  if (filter.until) (parts.push("ts < ?"), params.push(filter.until));
  if (filter.agent_model) (parts.push("agent_model = ?"), params.push(filter.agent_model));
  if (filter.source) (parts.push("source = ?"), params.push(filter.source));
  if (filter.registryKnown) parts.push("registry_status IS NOT NULL");
  if (filter.before) {
    parts.push("(ts < ? OR (ts = ? AND id < ?))");
    params.push(filter.before.ts, filter.before.ts, filter.before.id);
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

function toAuditRow(row: Row): AuditRow {
  return {
    id: Number(row.id),
    ts: String(row.ts),
    package: String(row.package),
    version: row.version as string | null,
    license: row.license as string | null,
    verdict: row.verdict as AuditRow["verdict"],
    project: String(row.project),
    requester: String(row.requester),
    agent_model: row.agent_model as string | null,
    agent_version: row.agent_version as string | null,
    source: String(row.source),
    denial_category: row.denial_category as AuditRow["denial_category"],
    cve_ids: JSON.parse(String(row.cve_ids ?? "[]")),
    max_cvss: row.max_cvss === null ? null : Number(row.max_cvss),
    registry_status: row.registry_status as AuditRow["registry_status"],
    registry_version: row.registry_version as string | null,
    license_raw: row.license_raw as string | null,
    reason: String(row.reason ?? ""),
    data: row.data ? JSON.parse(String(row.data)) : null,
    exceptions_applied: JSON.parse(String(row.exceptions_applied ?? "[]")),
  };
}

function toApproval(row: Row): ApprovalRequest {
  return {
    id: Number(row.id),
    package: String(row.package),
    version: row.version as string | null,
    project: String(row.project),
    requester: String(row.requester),
    rationale: String(row.rationale),
    agent_model: row.agent_model as string | null,
    agent_version: row.agent_version as string | null,
    status: row.status as ApprovalStatus,
    created_at: String(row.created_at),
    decided_at: row.decided_at as string | null,
    proposal_status: row.proposal_status as string | null,
    proposal_detail: row.proposal_detail as string | null,
  };
}

const AUDIT_INSERT = `INSERT INTO audit_log (ts, package, version, license, verdict, project,
  requester, agent_model, agent_version, source, denial_category, cve_ids, max_cvss,
  registry_status, registry_version, license_raw, reason, data, exceptions_applied)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Opens (creating and migrating when needed) a SQLite store at `path`.
 *
 * @example
 * ```ts
 * import type { NewAuditRow } from "./types.ts";
 * declare const row: NewAuditRow;
 * const store = openSqliteStore(":memory:");
 * await store.audit.insert(row);
 * await store.close();
 * ```
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const now = options.now ?? (() => new Date());
  const db = new DatabaseSync(path);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  const insertAudit = db.prepare(AUDIT_INSERT);
  let closed = false;

  const insertOne = (row: NewAuditRow): AuditRow => {
    const ts = now().toISOString();
    const result = insertAudit.run(
      ts,
      row.package,
      row.version,
      row.license,
      row.verdict,
      row.project,
      row.requester,
      row.agent_model,
      row.agent_version,
      row.source,
      row.denial_category,
      JSON.stringify(row.cve_ids),
      row.max_cvss,
      row.registry_status,
      row.registry_version,
      row.license_raw,
      row.reason,
      row.data ? JSON.stringify(row.data) : null,
      JSON.stringify(row.exceptions_applied ?? []),
    );
    return {
      ...row,
      data: row.data ?? null,
      exceptions_applied: row.exceptions_applied ?? [],
      id: Number(result.lastInsertRowid),
      ts,
    };
  };

  // Group commit: single inserts that arrive in the same turn of the event
  // loop (all requests whose handlers ran since the last I/O poll) share one
  // transaction, committed in the check phase of that turn, so well under a
  // millisecond after the first of them; `maxBatchRows` pending rows commit at
  // once. Each promise resolves only after its COMMIT, so "committed before the
  // response" still holds, while concurrent requests pay one WAL commit between
  // them instead of one each. (Waiting longer for bigger batches was measured
  // and is slower: under a closed-loop load every waiting client is idle.)
  const maxBatchRows = options.maxBatchRows ?? 256;
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  /** Runs `work` in one write transaction. */
  const inTransaction = <T>(work: () => T): T => {
    begin.run();
    try {
      const result = work();
      commit.run();
      return result;
    } catch (error) {
      rollback.run();
      throw error;
    }
  };
  let pending: Array<
    { row: NewAuditRow; resolve: (r: AuditRow) => void; reject: (e: unknown) => void }
  > = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    let stored: AuditRow[];
    try {
      stored = inTransaction(() => batch.map((item) => insertOne(item.row)));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => item.resolve(stored[i]));
  };

  const audit: Store["audit"] = {
    insert: (row) =>
      new Promise<AuditRow>((resolve, reject) => {
        if (closed) return reject(new Error("store is closed"));
        pending.push({ row, resolve, reject });
        if (pending.length === 1) setImmediate(flush);
        else if (pending.length >= maxBatchRows) flush();
      }),
    insertMany: (rows) => Promise.resolve().then(() => inTransaction(() => rows.map(insertOne))),
    list: (filter, limit) =>
      Promise.resolve().then(() => {
        const where = whereClause(filter);
        const rows = db
          .prepare(`SELECT * FROM audit_log ${where.sql} ORDER BY ts DESC, id DESC LIMIT ?`)
          .all(...where.params, limit) as Row[];
        return rows.map(toAuditRow);
      }),
    group: (filter, by) =>
      Promise.resolve().then(() => {
        const columns = by.map((key, i) => `${GROUP_COLUMNS[key]} AS k${i}`);
        const where = whereClause(filter);
        const select = columns.length ? `${columns.join(", ")}, ` : "";
        const groupBy = columns.length ? `GROUP BY ${by.map((_, i) => `k${i}`).join(", ")}` : "";
        const from = by.includes("cve")
          ? "audit_log, json_each(audit_log.cve_ids) AS cve"
          : "audit_log";
        const rows = db.prepare(
          `SELECT ${select}COUNT(*) AS count, MAX(max_cvss) AS max_cvss, MAX(ts) AS last_ts,
             json_group_array(DISTINCT project) AS projects,
             group_concat(cve_ids, char(31)) AS cve_lists
           FROM ${from} ${where.sql} ${groupBy}
           ORDER BY count DESC, last_ts DESC`,
        ).all(...where.params) as Row[];
        return rows
          .filter((row) => Number(row.count) > 0)
          .map((row): AuditGroup => {
            const cves = new Set<string>();
            for (const list of String(row.cve_lists ?? "").split("\x1f")) {
              if (list) { for (const id of JSON.parse(list) as string[]) cves.add(id); }
            }
            return {
              keys: Object.fromEntries(by.map((key, i) => [key, row[`k${i}`] as string | null])),
              count: Number(row.count),
              max_cvss: row.max_cvss === null ? null : Number(row.max_cvss),
              last_ts: String(row.last_ts),
              projects: (JSON.parse(String(row.projects)) as string[]).sort(),
              cve_ids: [...cves].sort(),
            };
          });
      }),
    lastAlert: (pkg) =>
      Promise.resolve().then(() => {
        const row = db.prepare(
          `SELECT * FROM audit_log WHERE package = ? AND verdict = 'CVE_ALERT'
           ORDER BY ts DESC, id DESC LIMIT 1`,
        ).get(pkg) as Row | undefined;
        return row ? toAuditRow(row) : undefined;
      }),
  };

  const approvals: Store["approvals"] = {
    create: (request: NewApprovalRequest) =>
      Promise.resolve().then(() => {
        const created_at = now().toISOString();
        const result = db.prepare(
          `INSERT INTO approval_requests (package, version, project, requester, rationale,
             agent_model, agent_version, status, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'PENDING_REVIEW', ?)`,
        ).run(
          request.package,
          request.version,
          request.project,
          request.requester,
          request.rationale,
          request.agent_model,
          request.agent_version,
          created_at,
        );
        return {
          ...request,
          id: Number(result.lastInsertRowid),
          status: "PENDING_REVIEW" as const,
          created_at,
          decided_at: null,
          proposal_status: null,
          proposal_detail: null,
        };
      }),
    list: (filter: ApprovalFilter) =>
      Promise.resolve().then(() => {
        const parts: string[] = [];
        const params: SQLInputValue[] = [];
        if (filter.project) (parts.push("project = ?"), params.push(filter.project));
        if (filter.status) (parts.push("status = ?"), params.push(filter.status));
        if (filter.package) (parts.push("package = ?"), params.push(filter.package));
        const where = parts.length ? `WHERE ${parts.join(" AND ")}` : "";
        const rows = db.prepare(
          `SELECT * FROM approval_requests ${where} ORDER BY created_at DESC, id DESC`,
        ).all(...params) as Row[];
        return rows.map(toApproval);
      }),
    approvePackages: (packages: string[], decidedAt: string) =>
      Promise.resolve().then(() => {
        if (packages.length === 0) return 0;
        let changed = 0;
        const update = db.prepare(
          `UPDATE approval_requests SET status = 'APPROVED', decided_at = ?
           WHERE status = 'PENDING_REVIEW' AND package = ?`,
        );
        db.exec("BEGIN IMMEDIATE");
        try {
          for (const pkg of packages) changed += Number(update.run(decidedAt, pkg).changes);
          db.exec("COMMIT");
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
        return changed;
      }),
    get: (id: number) =>
      Promise.resolve().then(() => {
        const row = db.prepare("SELECT * FROM approval_requests WHERE id = ?").get(id) as
          | Row
          | undefined;
        return row ? toApproval(row) : undefined;
      }),
    recordProposal: (id: number, status: string, detail: string) =>
      Promise.resolve().then(() => {
        db.prepare(
          "UPDATE approval_requests SET proposal_status = ?, proposal_detail = ? WHERE id = ?",
        )
          .run(status, detail, id);
      }),
  };

  return {
    audit,
    approvals,
    healthy: () =>
      Promise.resolve().then(() => {
        if (closed) return false;
        try {
          db.prepare("SELECT 1").get();
          return true;
        } catch {
          return false;
        }
      }),
    close: () =>
      Promise.resolve().then(() => {
        flush();
        if (!closed) {
          closed = true;
          db.close();
        }
      }),
  };
}
