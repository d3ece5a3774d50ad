/**
 * Versioned schema migrations, per dialect, read from the one ordered list of
 * schema steps (`schema_steps.ts`). Append only: a released step is never
 * edited, a change is a new step.
 *
 * @module
 */
import { type Dialect, DIALECT_WORDS, SCHEMA_STEPS, type SchemaStep } from "./schema_steps.ts";

/** One migration: a version number and the SQL that brings the schema to it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The migrations of one dialect, oldest first: the steps that carry a version
 * in it, with that version and the dialect's SQL.
 *
 * @example
 * ```ts
 * import { migrationsFor } from "./migrations.ts";
 * migrationsFor("sqlite")[0].version; // 1
 * ```
 */
export function migrationsFor(
  dialect: Dialect,
  steps: readonly SchemaStep[] = SCHEMA_STEPS,
): Migration[] {
  const out: Migration[] = [];
  for (const step of steps) {
    const version = step.versions[dialect];
    if (version === undefined) continue;
    const sql = step.sql(DIALECT_WORDS[dialect]);
    const last = out.at(-1)?.version ?? 0;
    if (version <= last) {
      throw new Error(`schema step "${step.name}": ${dialect} version ${version} after ${last}`);
    }
    out.push({ version, name: step.name, sql });
  }
  return out;
}

/** Every SQLite migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = migrationsFor("sqlite");
