/**
 * `GROUP BY` over the PostgreSQL audit log: the raw answer of
 * `AuditStore.group()`, optionally split per rollup bucket (day or hour)
 * when the rollups materialise a cube.
 *
 * @module
 */
import type postgres from "postgres";
import { auditGroupSql, groupsFrom } from "./group_sql.ts";
import type { Grain } from "./rollup_plan.ts";
import { POSTGRES_COLUMNS } from "./row_mapping.ts";
import { POSTGRES_DIALECT, unionOfCveLists } from "./sql_filter.ts";
import type { BucketedGroup } from "./rollup_group.ts";
import type { AuditFilter, AuditGroupKey } from "./types.ts";

/** Anything that runs a query: the pool or a transaction. */
export type Queryable = Pick<postgres.Sql, "unsafe">;

/** Groups the audit rows matching `filter` by `by` (and by bucket of `grain` when given). */
export async function postgresGroup(
  sql: Queryable,
  filter: AuditFilter,
  by: readonly AuditGroupKey[],
  grain?: Grain,
): Promise<BucketedGroup[]> {
  const statement = auditGroupSql(POSTGRES_DIALECT, filter, by, grain);
  const rows = await sql.unsafe(statement.sql, statement.params);
  return groupsFrom(rows, by, grain, {
    time: POSTGRES_COLUMNS.time,
    projects: (value) => [...(value as string[])],
    cveIds: (value) => unionOfCveLists((value ?? []) as string[][]),
  });
}
