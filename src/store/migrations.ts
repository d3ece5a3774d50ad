/**
 * Versioned schema migrations of the SQLite store. Append only: a released
 * migration is never edited, a change is a new entry.
 *
 * @module
 */

/** One migration: a version number and the SQL that brings the schema to it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "audit log and approval requests",
    sql: `
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts TEXT NOT NULL,
        package TEXT NOT NULL,
        version TEXT,
        license TEXT,
        verdict TEXT NOT NULL,
        project TEXT NOT NULL,
        requester TEXT NOT NULL,
        agent_model TEXT,
        agent_version TEXT,
        source TEXT NOT NULL,
        denial_category TEXT,
        cve_ids TEXT NOT NULL DEFAULT '[]',
        max_cvss REAL,
        registry_status TEXT,
        registry_version TEXT,
        license_raw TEXT,
        reason TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX audit_log_ts ON audit_log (ts);
      CREATE INDEX audit_log_package_ts ON audit_log (package, ts);
      CREATE INDEX audit_log_project_ts ON audit_log (project, ts);
      CREATE INDEX audit_log_category_ts ON audit_log (denial_category, ts);
      CREATE INDEX audit_log_verdict_ts ON audit_log (verdict, ts);
      CREATE INDEX audit_log_agent ON audit_log (agent_model, agent_version, ts);
      CREATE TABLE approval_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        package TEXT NOT NULL,
        version TEXT,
        project TEXT NOT NULL,
        requester TEXT NOT NULL,
        rationale TEXT NOT NULL,
        agent_model TEXT,
        agent_version TEXT,
        status TEXT NOT NULL DEFAULT 'PENDING_REVIEW',
        created_at TEXT NOT NULL,
        decided_at TEXT,
        proposal_status TEXT,
        proposal_detail TEXT
      );
      CREATE INDEX approval_requests_status_package ON approval_requests (status, package);
      CREATE INDEX approval_requests_project ON approval_requests (project, status);
    `,
  },
  {
    version: 2,
    name: "audit rows record what the decision knew (data status) and the exceptions applied",
    sql: `
      ALTER TABLE audit_log ADD COLUMN data TEXT;
      ALTER TABLE audit_log ADD COLUMN exceptions_applied TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 3,
    name: "partial audit indexes on denial category and agent model: cheaper inserts",
    // Denial categories and agent models are NULL on most rows (allowed answers, calls that are
    // not an agent's): partial indexes skip those rows' insert cost and still serve every filter
    // on them. (verdict, ts) stays: without it the provisional-packages query of the security
    // report scans the whole (package, ts) index. EXPLAIN QUERY PLAN of every audit query:
    // tests/bench/query_plans.ts.
    sql: `
      DROP INDEX audit_log_category_ts;
      DROP INDEX audit_log_agent;
      CREATE INDEX audit_log_denials_ts ON audit_log (denial_category, ts)
        WHERE denial_category IS NOT NULL;
      CREATE INDEX audit_log_agent_ts ON audit_log (agent_model, ts)
        WHERE agent_model IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: "audit rollups: per-day and per-hour groups of report cubes, materialised on first use",
    // Written by reads only (src/store/sqlite_rollup.ts); the insert path deletes a stored bucket
    // only when a row is stamped inside it, over every cube (found through the marks, hence their
    // second index). One row per (cube, grain, bucket, key of the cube).
    sql: `
      CREATE TABLE audit_rollup (
        cube TEXT NOT NULL,
        grain TEXT NOT NULL,
        bucket TEXT NOT NULL,
        key TEXT NOT NULL,
        count INTEGER NOT NULL,
        max_cvss REAL,
        last_ts TEXT NOT NULL,
        projects TEXT NOT NULL,
        cve_ids TEXT NOT NULL,
        PRIMARY KEY (cube, grain, bucket, key)
      ) WITHOUT ROWID;
      CREATE TABLE audit_rollup_buckets (
        cube TEXT NOT NULL,
        grain TEXT NOT NULL,
        bucket TEXT NOT NULL,
        bucket_end TEXT NOT NULL,
        PRIMARY KEY (cube, grain, bucket)
      ) WITHOUT ROWID;
      CREATE INDEX audit_rollup_buckets_bucket ON audit_rollup_buckets (grain, bucket);
    `,
  },
  {
    version: 5,
    name: "audit rows list the supply-chain threats of their decision (SPEC §17.2)",
    sql: `
      ALTER TABLE audit_log ADD COLUMN threats TEXT NOT NULL DEFAULT '[]';
    `,
  },
  // The alerts outbox (issue #32).
  {
    version: 6,
    name: "alert outbox: one row per event and destination, claimed by the deliverers",
    sql: `
      CREATE TABLE alert_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_key TEXT NOT NULL,
        destination TEXT NOT NULL,
        kind TEXT NOT NULL,
        severity TEXT NOT NULL,
        package TEXT,
        title TEXT NOT NULL,
        data TEXT NOT NULL,
        occurred_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        claimed_by TEXT,
        claimed_until TEXT,
        last_error TEXT,
        delivered_at TEXT,
        UNIQUE (event_key, destination)
      );
      CREATE INDEX alert_outbox_due ON alert_outbox (state, next_attempt_at);
      CREATE INDEX alert_outbox_created ON alert_outbox (created_at);
      `,
  },
  {
    version: 7,
    name: "review lifecycle: request decisions and source, the registry change log",
    // One row per changed rule or operator decision, newest read first (by id).
    sql: `
      ALTER TABLE approval_requests ADD COLUMN source TEXT;
      ALTER TABLE approval_requests ADD COLUMN decided_by TEXT;
      ALTER TABLE approval_requests ADD COLUMN decision_reason TEXT;
      CREATE TABLE registry_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts TEXT NOT NULL,
        package TEXT NOT NULL,
        kind TEXT NOT NULL,
        before TEXT,
        after TEXT,
        actor TEXT,
        proposer TEXT,
        previous_version TEXT,
        registry_version TEXT,
        url TEXT,
        reverts INTEGER,
        request_id INTEGER,
        detail TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX registry_changes_package ON registry_changes (package, id);
    `,
  },
];
