/**
 * The PostgreSQL connection (npm `postgres`) and the migration runner. The
 * migrations run inside one transaction holding a transaction-level advisory
 * lock, so instances starting together apply them exactly once.
 *
 * @module
 */
import postgres from "postgres";
import { POSTGRES_MIGRATIONS } from "./postgres_migrations.ts";

/** A connection pool. */
export type Sql = postgres.Sql;

/** The connection of one transaction (`sql.begin`). */
export type TransactionSql = postgres.TransactionSql;

/** Key of the advisory lock held while migrating ("policyd" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x706f6c696379;

/** Whether a `DATABASE_URL` names PostgreSQL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Options of {@link connectPostgres}. */
export interface ConnectOptions {
  /** Pool size. Default 10. */
  max?: number;
  /** Seconds to wait for a connection. Default 10. */
  connectTimeoutSeconds?: number;
}

/**
 * Opens a connection pool (lazily: the first query connects).
 *
 * @example
 * ```ts ignore
 * // ignore: needs a PostgreSQL server
 * const sql = connectPostgres("postgres://postgres@127.0.0.1:5432/policyd");
 * await sql`SELECT 1`;
 * await sql.end();
 * ```
 */
export function connectPostgres(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    onnotice: () => {},
    // Timestamps are read as Date and written as ISO strings; nothing else needs conversion.
    transform: { undefined: null },
  });
}

/** The versions applied so far and the versions this build knows. */
export interface MigrationState {
  applied: number[];
  known: number[];
  /** Known versions not applied yet. */
  pending: number[];
  /** Applied versions this build does not know (the database is newer than the code). */
  unknown: number[];
}

async function appliedVersions(sql: Sql | postgres.TransactionSql): Promise<number[]> {
  const rows = await sql.unsafe(
    `SELECT version FROM schema_migrations ORDER BY version`,
  ).catch((error) => {
    if ((error as { code?: string }).code === "42P01") return []; // no table yet
    throw error;
  });
  return rows.map((r) => Number(r.version));
}

/** Reads which migrations are applied, without changing anything. */
export async function migrationState(sql: Sql): Promise<MigrationState> {
  const applied = await appliedVersions(sql);
  const known = POSTGRES_MIGRATIONS.map((m) => m.version);
  return {
    applied,
    known,
    pending: known.filter((v) => !applied.includes(v)),
    unknown: applied.filter((v) => !known.includes(v)),
  };
}

/** Applies every pending migration, once across instances; returns the versions applied. */
export async function migratePostgres(sql: Sql): Promise<number[]> {
  return await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`);
    const applied = new Set(await appliedVersions(tx));
    const done: number[] = [];
    for (const migration of POSTGRES_MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx.unsafe(
        `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())`,
        [migration.version, migration.name],
      );
      done.push(migration.version);
    }
    return done;
  });
}
