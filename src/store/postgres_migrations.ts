/**
 * Versioned schema migrations of the PostgreSQL store: its dialect's share of
 * the one ordered list of schema steps (`schema_steps.ts`).
 *
 * @module
 */
import { type Migration, migrationsFor } from "./migrations.ts";

/** Every PostgreSQL migration, oldest first. */
export const POSTGRES_MIGRATIONS: readonly Migration[] = migrationsFor("postgres");
