/**
 * The `check-config` row of a PostgreSQL `DATABASE_URL`: the server answers
 * and the schema is at this build's migration version. Nothing is changed.
 *
 * @module
 */
import { connectPostgres, migrationState } from "./postgres_connection.ts";

/** One `check-config` row (the shape `config_checks.ts` renders). */
export interface DatabaseCheckRow {
  check: "database";
  status: "ok" | "warn" | "fail";
  detail: string;
  hint: string;
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, "//***@");

/**
 * Connects to `url` (bounded by `timeoutSeconds`) and reads the applied migrations.
 *
 * @example
 * ```ts ignore
 * // ignore: needs a PostgreSQL server
 * const row = await postgresDatabaseCheck("postgres://postgres@127.0.0.1:5432/policyd");
 * row.status; // "ok" once migrated, "warn" before the first start
 * ```
 */
export async function postgresDatabaseCheck(
  url: string,
  timeoutSeconds = 3,
): Promise<DatabaseCheckRow> {
  const shown = redact(url);
  const row = (status: DatabaseCheckRow["status"], detail: string, hint = "") => ({
    check: "database" as const,
    status,
    detail,
    hint,
  });
  const sql = connectPostgres(url, { max: 1, connectTimeoutSeconds: timeoutSeconds });
  try {
    const state = await migrationState(sql);
    if (state.unknown.length) {
      return row(
        "fail",
        `PostgreSQL at ${shown} has migrations this build does not know (${
          state.unknown.join(", ")
        })`,
        "a newer policyd migrated this database; run that version (migrations are never undone)",
      );
    }
    if (state.pending.length) {
      return row(
        "warn",
        `PostgreSQL at ${shown} answers; migrations ${state.pending.join(", ")} pending (applied: ${
          state.applied.join(", ") || "none"
        })`,
        "the first instance to start applies them, once, under an advisory lock",
      );
    }
    return row(
      "ok",
      `PostgreSQL at ${shown} answers; schema at migration ${state.applied.at(-1)}`,
    );
  } catch (error) {
    return row(
      "fail",
      `PostgreSQL at ${shown} is unreachable: ${(error as Error).message}`,
      "start PostgreSQL, create the database, or fix DATABASE_URL",
    );
  } finally {
    await sql.end({ timeout: 1 });
  }
}
