/**
 * One sortable table shape shared by the report pages: a labelled region,
 * one heading per column, one row per item.
 *
 * @module
 */
import type { Child } from "hono/jsx";
import { PackageLink, TableWrap } from "./components.tsx";

/** A column of a {@link DataTable}: its heading, right-aligned when the values are numbers. */
export interface Column {
  title: string;
  num?: boolean;
}

/**
 * A labelled, sortable table of `rows`, one heading per column; `cells`
 * gives a row's `<td>` elements in the order of `columns`.
 */
export function DataTable<T>(
  props: { label: string; testid: string; columns: Column[]; rows: T[]; cells: (row: T) => Child },
) {
  return (
    <TableWrap label={props.label}>
      <table data-testid={props.testid} class="sortable">
        <thead>
          <tr>
            {props.columns.map((column) => (
              column.num
                ? <th scope="col" class="num">{column.title}</th>
                : <th scope="col">{column.title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              {props.cells(row)}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A table cell linking to a package's page. */
export function PackageCell(props: { name: string }) {
  return (
    <td>
      <PackageLink name={props.name} />
    </td>
  );
}
