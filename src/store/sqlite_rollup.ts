/**
 * The rollups on SQLite: bucket groups of each cube in `audit_rollup`,
 * which buckets are stored in `audit_rollup_buckets`. A bucket is
 * materialised in one write transaction on the first read that needs it;
 * `node:sqlite` is synchronous, so no insert can run between the read of
 * the audit rows and the write of the bucket. An audit row stamped inside a
 * stored bucket (an injected clock, a lagging instance) deletes that bucket
 * in its own insert transaction, and the next read materialises it again.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { ROLLUP_COLUMNS, rollupDropSql, rollupReadParams } from "./rollup_sql.ts";
import { rollupReadSql, rollupRowValues, storedGroupsFrom } from "./rollup_sql.ts";
import { SQLITE_DIALECT } from "./sql_filter.ts";
import type { Cube } from "./rollup_cubes.ts";
import type { RollupBackend } from "./rollup_group.ts";
import { bucketEnd, bucketOf, type Grain, GRAINS, rangesEnd } from "./rollup_plan.ts";
import { sqliteGroup } from "./sqlite_group.ts";
import type { Transaction } from "./sqlite_transaction.ts";

type Row = Record<string, SQLInputValue>;

/** The SQLite rollups: the read side and the insert path's hook. */
export interface SqliteRollups {
  backend: RollupBackend;
  /**
   * Called inside the insert transaction for each new row: drops the stored
   * buckets holding `ts` when there may be any. A string comparison unless
   * the row is late.
   */
  noteInsert(ts: string): void;
}

/** Creates the rollups of a migrated database. */
export function createSqliteRollups(db: DatabaseSync, inTransaction: Transaction): SqliteRollups {
  const drops = rollupDropSql(SQLITE_DIALECT).map((sql) => db.prepare(sql));
  const storedBuckets = db.prepare(
    `SELECT bucket FROM audit_rollup_buckets WHERE cube = ? AND grain = ? AND bucket >= ? AND bucket <= ?`,
  );
  const insertRow = db.prepare(
    `INSERT INTO audit_rollup (${ROLLUP_COLUMNS.join(", ")})
     VALUES (${ROLLUP_COLUMNS.map(() => "?").join(", ")})`,
  );
  const insertBucket = db.prepare(
    "INSERT INTO audit_rollup_buckets (cube, grain, bucket, bucket_end) VALUES (?, ?, ?, ?)",
  );
  const reads = new Map<string, StatementSync>();
  const readStatement = (ranges: number, perDay: boolean) => {
    const id = `${ranges}/${perDay}`;
    let statement = reads.get(id);
    if (!statement) {
      reads.set(id, statement = db.prepare(rollupReadSql(SQLITE_DIALECT, ranges, perDay)));
    }
    return statement;
  };
  const newest = db.prepare("SELECT MAX(ts) AS ts FROM audit_log");
  // Rows stamped before this may fall into a stored bucket (the newest bucket end this process saw).
  let lateBefore = String(
    (db.prepare("SELECT MAX(bucket_end) AS e FROM audit_rollup_buckets").get() as Row).e ?? "",
  );

  const materialise = (cube: Cube, grain: Grain, buckets: string[]) => {
    const first = buckets[0], last = buckets.at(-1)!;
    const missingBuckets = () => {
      const stored = new Set(
        (storedBuckets.all(cube.name, grain, first, last) as Row[]).map((r) => String(r.bucket)),
      );
      return new Set(buckets.filter((b) => !stored.has(b)));
    };
    if (missingBuckets().size === 0) return;
    const until = bucketEnd(last, grain);
    inTransaction(() => {
      // Again inside the write lock: another process may have stored them meanwhile.
      const missing = missingBuckets();
      const groups = sqliteGroup(db, { ...cube.where, since: first, until }, cube.by, grain);
      for (const g of groups) {
        if (!missing.has(g.bucket!)) continue;
        insertRow.run(...rollupRowValues(cube, grain, g));
      }
      for (const bucket of missing) {
        insertBucket.run(cube.name, grain, bucket, bucketEnd(bucket, grain));
      }
    });
  };

  return {
    backend: {
      rawGroup: (filter, by) => Promise.resolve().then(() => sqliteGroup(db, filter, by)),
      newestTs: () =>
        Promise.resolve().then(() => {
          const ts = (newest.get() as Row).ts;
          return ts === null ? null : String(ts);
        }),
      read: (cube, ranges, perDay) =>
        Promise.resolve().then(() => {
          const statement = readStatement(ranges.length, perDay);
          const params = rollupReadParams(cube, ranges);
          const texts = (value: unknown) => JSON.parse(String(value)) as string[];
          // Stored buckets, by this process or another one, make rows stamped before their end late.
          const end = rangesEnd(ranges);
          if (end > lateBefore) lateBefore = end;
          const stored = storedGroupsFrom(statement.all(...params), ranges, texts);
          if (stored) return stored;
          for (const { grain, buckets } of ranges) materialise(cube, grain, buckets);
          return storedGroupsFrom(statement.all(...params), ranges, texts)!;
        }),
    },
    noteInsert(ts) {
      if (ts >= lateBefore) return;
      for (const { name } of GRAINS) {
        const bucket = bucketOf(Date.parse(ts), name);
        for (const drop of drops) drop.run(name, bucket);
      }
    },
  };
}
