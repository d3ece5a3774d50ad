/**
 * One sortable table shape shared by the report pages: a labelled region,
 * one heading per column, one row per item.
 *
 * @module
 */
import type { Child } from "hono/jsx";
import { PackageLink, TableWrap } from "./components.tsx";

/**
 * A column of a {@link DataTable}: its heading, right-aligned when the values
 * are numbers, or read by screen readers only (a column of checkboxes).
 */
export interface Column {
  title: string;
  num?: boolean;
  hidden?: boolean;
}

/** Properties of a {@link DataTable}. */
export interface DataTableProps<T> {
  /** The region's accessible name. */
  label: string;
  testid: string;
  /** The table's caption, when it has one. */
  caption?: string;
  /** Classes after `sortable`, e.g. `cards` (rows become cards on a phone; cells carry `data-label`). */
  class?: string;
  columns: Column[];
  rows: T[];
  /** A row's `<td>` elements, in the order of `columns`. */
  cells: (row: T) => Child;
  /** Attributes of a row's `<tr>` (`data-*` the page's script reads). */
  rowAttributes?: (row: T) => Record<string, string | number>;
}

function Heading(props: { column: Column }) {
  const { title, num, hidden } = props.column;
  if (hidden) {
    return (
      <th scope="col">
        <span class="visually-hidden">{title}</span>
      </th>
    );
  }
  return num ? <th scope="col" class="num">{title}</th> : <th scope="col">{title}</th>;
}

/**
 * A labelled, sortable table of `rows`, one heading per column; `cells`
 * gives a row's `<td>` elements in the order of `columns`.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const classes = props.class ? `sortable ${props.class}` : "sortable";
  return (
    <TableWrap label={props.label}>
      <table data-testid={props.testid} class={classes}>
        {props.caption ? <caption>{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.columns.map((column) => <Heading key={column.title} column={column} />)}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr {...props.rowAttributes?.(row)}>
              {props.cells(row)}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A table cell linking to a package's page; `label` names it when rows become cards. */
export function PackageCell(props: { name: string; label?: string }) {
  return (
    <td {...(props.label ? { "data-label": props.label } : {})}>
      <PackageLink name={props.name} />
    </td>
  );
}
