/**
 * The state of the data behind a page: a banner when upstream data was
 * unavailable, the registry exceptions that expire soon or have expired,
 * and the availability summary of the overview.
 *
 * @module
 */
import { type DataAvailability, type ExceptionEntry, exceptionsOf } from "./availability.ts";
import { Card, Empty, formatTime, PackageLink, TableWrap } from "./components.tsx";

/** Which lookup a banner is about. */
export type LookupKind = "vulnerabilities" | "license";

const WHAT: Record<LookupKind, { name: string; field: keyof DataAvailability; effect: string }> = {
  vulnerabilities: {
    name: "Vulnerability data (OSV)",
    field: "vulnerabilities_unavailable",
    effect: "The CVE figures below cover only the evaluations that had it.",
  },
  license: {
    name: "Licence data (PyPI)",
    field: "license_unavailable",
    effect: "The licence figures below cover only the evaluations that had it.",
  },
};

/** The number of evaluations without this lookup's data (0 when not reported). */
export function unavailableCount(data: DataAvailability | null, kind: LookupKind): number {
  return data ? data[WHAT[kind].field] : 0;
}

/** A warning banner with the count of evaluations without data; nothing when none. */
export function UnavailableBanner(props: { data: DataAvailability | null; kind: LookupKind }) {
  const missing = unavailableCount(props.data, props.kind);
  if (!props.data || missing <= 0) return null;
  const what = WHAT[props.kind];
  return (
    <p class="notice warn" role="status" data-testid="data-banner">
      <strong>
        {what.name} was unavailable for {missing} of {props.data.evaluations}{" "}
        evaluations in this window.
      </strong>{" "}
      {what.effect}
    </p>
  );
}

function ExceptionRows(props: { rows: ExceptionEntry[]; caption: string; testid: string }) {
  return (
    <TableWrap label={props.caption}>
      <table class="sortable" data-testid={props.testid}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Package</th>
            <th scope="col">Project</th>
            <th scope="col">Expires</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((e) => (
            <tr>
              <td>
                <PackageLink name={e.package} />
              </td>
              <td>{e.project ?? "every project"}</td>
              <td data-sort={e.expires ?? ""}>{e.expires ? formatTime(e.expires) : "—"}</td>
              <td>{e.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The exceptions card of a report that carries `exceptions`; nothing otherwise. */
export function ExceptionsCard(props: { report: unknown }) {
  const exceptions = exceptionsOf(props.report);
  if (!exceptions) return null;
  const { expiring, expired } = exceptions;
  return (
    <Card
      title="Exceptions"
      id="exceptions"
      hint="Registry exceptions that expire soon or have expired."
    >
      {expired.length
        ? <ExceptionRows rows={expired} caption="Expired" testid="exceptions-expired" />
        : <Empty>No exception has expired.</Empty>}
      {expiring.length
        ? <ExceptionRows rows={expiring} caption="Expiring soon" testid="exceptions-expiring" />
        : <Empty>No exception expires soon.</Empty>}
    </Card>
  );
}

/** One line of the availability summary. */
function AvailabilityLine(props: { data: DataAvailability | null; kind: LookupKind }) {
  const what = WHAT[props.kind];
  if (!props.data) {
    return (
      <li>
        {what.name}: <span class="muted">not reported by this server</span>
      </li>
    );
  }
  const missing = unavailableCount(props.data, props.kind);
  return (
    <li>
      {what.name}: {missing > 0
        ? (
          <strong class="warn-text">
            unavailable for {missing} of {props.data.evaluations} evaluations
          </strong>
        )
        : <span>available for all {props.data.evaluations} evaluations</span>}
    </li>
  );
}

/** The overview's data availability card. */
export function AvailabilityCard(
  props: {
    vulnerabilities: DataAvailability | null;
    license: DataAvailability | null;
    compiledAt: string;
  },
) {
  return (
    <Card title="Data availability" id="data-availability">
      <ul data-testid="data-availability">
        <AvailabilityLine data={props.vulnerabilities} kind="vulnerabilities" />
        <AvailabilityLine data={props.license} kind="license" />
        <li>Registry compiled {formatTime(props.compiledAt)}</li>
      </ul>
    </Card>
  );
}
