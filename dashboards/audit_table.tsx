/**
 * Audit rows (decisions, denials or scanner alerts) as one {@link DataTable}
 * shape, shared by the overview, audit, package, security, legal and threat
 * views.
 *
 * @module
 */
import type { AuditRow } from "../src/store/types.ts";
import { categoryLabel } from "./category_labels.ts";
import { Badge, Empty, Time } from "./components.tsx";
import { type Column, DataTable, PackageCell } from "./data_table.tsx";

/** Properties of an {@link AuditTable}. */
export interface AuditTableProps {
  rows: AuditRow[];
  /** The caption, also the region's accessible name. */
  caption: string;
  /** What is said instead of an empty table. */
  empty: string;
  testid: string;
  /** Show the denial category, agent and source columns (audit browser). */
  detailed?: boolean;
}

/** The columns in order; `detailed` ones only in a detailed table. */
const AUDIT_COLUMNS: Array<Column & { detailed?: boolean }> = [
  { title: "Time" },
  { title: "Package" },
  { title: "Version" },
  { title: "Verdict" },
  { title: "Category", detailed: true },
  { title: "Project" },
  { title: "Agent", detailed: true },
  { title: "Source", detailed: true },
  { title: "Reason" },
];

function AuditCells(props: { row: AuditRow; detailed: boolean }) {
  const { row, detailed } = props;
  return (
    <>
      <td data-label="Time" data-sort={row.ts}>
        <Time iso={row.ts} />
      </td>
      <PackageCell name={row.package} label="Package" />
      <td data-label="Version">{row.version ?? "any"}</td>
      <td data-label="Verdict">
        <Badge kind={row.verdict} />
      </td>
      {detailed ? <td data-label="Category">{categoryLabel(row.denial_category)}</td> : null}
      <td data-label="Project">{row.project}</td>
      {detailed
        ? (
          <td data-label="Agent">
            {row.agent_model
              ? `${row.agent_model}${row.agent_version ? ` ${row.agent_version}` : ""}`
              : "—"}
          </td>
        )
        : null}
      {detailed ? <td data-label="Source">{row.source}</td> : null}
      <td data-label="Reason" class="reason">
        {row.reason}
        {row.cve_ids.length ? <div class="muted">{row.cve_ids.join(", ")}</div> : null}
      </td>
    </>
  );
}

/** Audit rows as a sortable table with a caption; cards on a phone; `empty` when there are none. */
export function AuditTable(props: AuditTableProps) {
  if (props.rows.length === 0) return <Empty>{props.empty}</Empty>;
  const detailed = props.detailed === true;
  return (
    <DataTable
      label={props.caption}
      caption={props.caption}
      testid={props.testid}
      class="cards"
      columns={AUDIT_COLUMNS.filter((column) => detailed || !column.detailed)}
      rows={props.rows}
      cells={(row) => <AuditCells row={row} detailed={detailed} />}
    />
  );
}
