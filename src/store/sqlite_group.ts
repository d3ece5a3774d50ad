/**
 * `GROUP BY` over the SQLite audit log: the raw answer of
 * `AuditStore.group()`, optionally split per rollup bucket (day or hour)
 * when the rollups materialise a cube.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { auditGroupSql, groupsFrom } from "./group_sql.ts";
import type { Grain } from "./rollup_plan.ts";
import { SQLITE_DIALECT, unionOfCveLists } from "./sql_filter.ts";
import type { AuditFilter, AuditGroupKey } from "./types.ts";
import type { BucketedGroup } from "./rollup_group.ts";

/** Groups the audit rows matching `filter` by `by` (and by bucket of `grain` when given). */
export function sqliteGroup(
  db: DatabaseSync,
  filter: AuditFilter,
  by: readonly AuditGroupKey[],
  grain?: Grain,
): BucketedGroup[] {
  const statement = auditGroupSql(SQLITE_DIALECT, filter, by, grain);
  const rows = db.prepare(statement.sql).all(...statement.params);
  return groupsFrom(rows, by, grain, {
    time: String,
    projects: (value) => JSON.parse(String(value)),
    cveIds: (value) =>
      unionOfCveLists(
        String(value ?? "").split("\x1f").filter(Boolean).map((list) => JSON.parse(list)),
      ),
  });
}
