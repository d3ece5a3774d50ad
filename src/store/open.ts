/**
 * Chooses the store backend from the store options: PostgreSQL when
 * `DATABASE_URL` is set, else SQLite at `POLICY_DB_PATH`.
 *
 * @module
 */
import { openPostgresStore, type PostgresStore } from "./postgres.ts";
import type { StoreOptions } from "./settings.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

/** The opened store; `postgres` is set when it is the shared PostgreSQL store. */
export interface OpenedBackend {
  store: Store;
  postgres: PostgresStore | null;
}

/**
 * Opens the configured store (migrating it).
 *
 * @example
 * ```ts
 * import { openStore } from "./open.ts";
 * const { store } = await openStore({ dbPath: ":memory:", databaseUrl: null });
 * await store.close();
 * ```
 */
export async function openStore(
  options: Pick<StoreOptions, "dbPath" | "databaseUrl">,
  clock: { now?: () => Date } = {},
): Promise<OpenedBackend> {
  if (options.databaseUrl) {
    const postgres = await openPostgresStore(options.databaseUrl, clock);
    return { store: postgres, postgres };
  }
  return { store: openSqliteStore(options.dbPath, clock), postgres: null };
}
