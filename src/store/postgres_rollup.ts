/**
 * The rollups on PostgreSQL: the same tables and rules as on SQLite
 * (`sqlite_rollup.ts`). Reads and inserts run concurrently here, so a
 * bucket is materialised under a transaction-level advisory lock that a
 * late insert (one stamped inside a stored bucket) also takes before it
 * deletes the bucket; and before reading the audit rows of a bucket, the
 * materialiser waits for the insert transactions of this process that
 * started before it announced the bucket (those could not know it).
 *
 * @module
 */
import type { Cube } from "./rollup_cubes.ts";
import type { RollupBackend } from "./rollup_group.ts";
import { bucketEnd, bucketOf, type Grain, GRAINS, rangesEnd } from "./rollup_plan.ts";
import type { Sql } from "./postgres_connection.ts";
import { postgresGroup, type Queryable } from "./postgres_group.ts";
import { ROLLUP_COLUMNS, rollupDropSql, rollupReadParams } from "./rollup_sql.ts";
import { rollupReadSql, rollupRowValues, storedGroupsFrom } from "./rollup_sql.ts";
import { POSTGRES_DIALECT } from "./sql_filter.ts";

/** Key of the advisory lock of rollup writes ("rollups" in ASCII). */
const ROLLUP_LOCK_KEY = 0x726f6c6c757073;

/** The PostgreSQL rollups: the read side and the insert path's hooks. */
export interface PostgresRollups {
  backend: RollupBackend;
  /** The stamps among `stamps` that may fall into a stored bucket (a string comparison each). */
  late(stamps: readonly string[]): string[];
  /** Inside the insert transaction: deletes the stored buckets holding the `late` stamps. */
  invalidate(tx: Queryable, late: readonly string[]): Promise<void>;
  /** Registers an insert transaction that has checked {@link late}; returns it. */
  track<T>(insert: Promise<T>): Promise<T>;
}

/** Creates the rollups; `lateBefore` is the newest stored bucket end at start-up. */
export async function createPostgresRollups(sql: Sql): Promise<PostgresRollups> {
  const [{ e }] = await sql.unsafe("SELECT MAX(bucket_end) AS e FROM audit_rollup_buckets");
  let lateBefore = String(e ?? "");
  const inserts = new Set<Promise<unknown>>();
  const busy = new Map<string, Promise<void>>();
  let newest: Promise<string | null> | undefined;

  const storedBuckets = async (tx: Queryable, cube: string, grain: Grain, buckets: string[]) =>
    new Set(
      (await tx.unsafe(
        `SELECT bucket FROM audit_rollup_buckets
         WHERE cube = $1 AND grain = $2 AND bucket >= $3 AND bucket <= $4`,
        [cube, grain, buckets[0], buckets.at(-1)!],
      )).map((r) => String(r.bucket)),
    );

  const materialise = async (cube: Cube, grain: Grain, buckets: string[]) => {
    const until = bucketEnd(buckets.at(-1)!, grain);
    await Promise.allSettled([...inserts]);
    await sql.begin(async (tx) => {
      await tx.unsafe("SELECT pg_advisory_xact_lock($1)", [ROLLUP_LOCK_KEY]);
      const stored = await storedBuckets(tx, cube.name, grain, buckets);
      const missing = new Set(buckets.filter((b) => !stored.has(b)));
      if (missing.size === 0) return;
      const groups = await postgresGroup(
        tx,
        { ...cube.where, since: buckets[0], until },
        cube.by,
        grain,
      );
      const rows = groups.filter((g) => missing.has(g.bucket!)).map((g) =>
        rollupRowValues(cube, grain, g)
      );
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        await tx.unsafe(
          `INSERT INTO audit_rollup (${ROLLUP_COLUMNS.join(", ")}) VALUES ${
            chunk.map((_, r) =>
              `(${
                ROLLUP_COLUMNS.map((_, c) => `$${r * ROLLUP_COLUMNS.length + c + 1}`).join(", ")
              })`
            ).join(", ")
          }`,
          chunk.flat(),
        );
      }
      const marks = [...missing];
      await tx.unsafe(
        `INSERT INTO audit_rollup_buckets (cube, grain, bucket, bucket_end)
         SELECT $1, $2, b, e FROM unnest($3::text[], $4::text[]) AS t(b, e)`,
        [cube.name, grain, marks, marks.map((b) => bucketEnd(b, grain))],
      );
    });
  };

  /** One materialisation per cube at a time in this process. */
  const ensure = (cube: Cube, grain: Grain, buckets: string[]) => {
    const previous = busy.get(cube.name) ?? Promise.resolve();
    const run = previous.then(() => materialise(cube, grain, buckets));
    busy.set(cube.name, run.catch(() => {}));
    return run;
  };

  return {
    backend: {
      rawGroup: (filter, by) => postgresGroup(sql, filter, by),
      newestTs() {
        // Concurrent calls (a report's group() calls) share one query: any newest row seen
        // during a call is a correct horizon, as buckets only ever become complete.
        newest ??= sql.unsafe("SELECT MAX(ts) AS ts FROM audit_log", [], { prepare: true })
          .then(([{ ts }]) => ts === null ? null : new Date(ts).toISOString())
          .finally(() => (newest = undefined));
        return newest;
      },
      async read(cube, ranges, perDay) {
        const statement = rollupReadSql(POSTGRES_DIALECT, ranges.length, perDay);
        const params = rollupReadParams(cube, ranges);
        // Stored buckets, by this instance or another one, make rows stamped before their end late;
        // raised before reading, so that an insert checking after this cannot miss a bucket read here.
        const end = rangesEnd(ranges);
        if (end > lateBefore) lateBefore = end;
        for (let attempt = 0; attempt < 5; attempt++) {
          // The marks and the groups come from one snapshot: a late insert that dropped a
          // bucket after the check shows as a missing mark, and the loop materialises it again.
          const stored = storedGroupsFrom(
            await sql.unsafe(statement, params, { prepare: true }),
            ranges,
            (value) => value as string[],
          );
          if (stored) return stored;
          for (const { grain, buckets } of ranges) await ensure(cube, grain, buckets);
        }
        throw new Error(`Cannot store the rollup buckets of cube "${cube.name}" (5 attempts)`);
      },
    },
    late: (stamps) => stamps.filter((ts) => ts < lateBefore),
    async invalidate(tx, late) {
      await tx.unsafe("SELECT pg_advisory_xact_lock($1)", [ROLLUP_LOCK_KEY]);
      const buckets = GRAINS.flatMap(({ name }) =>
        [...new Set(late.map((ts) => bucketOf(Date.parse(ts), name)))].map((b) => [name, b])
      );
      for (const statement of rollupDropSql(POSTGRES_DIALECT)) {
        for (const [grain, bucket] of buckets) await tx.unsafe(statement, [grain, bucket]);
      }
    },
    track(insert) {
      inserts.add(insert);
      const done = () => inserts.delete(insert);
      insert.then(done, done);
      return insert;
    },
  };
}
