/**
 * The state of the data behind the overview: whether upstream data was
 * available for the window's evaluations (from the security and legal
 * reports' `data_availability`). The security and legal pages use the
 * banner of `data_banner.tsx`.
 *
 * @module
 */
import type { DataAvailability } from "../src/reports/data_availability.ts";
import { Card, formatTime } from "./components.tsx";

/** Which lookup a line is about. */
export type LookupKind = "vulnerabilities" | "license";

const NAMES: Record<LookupKind, string> = {
  vulnerabilities: "Vulnerability data (OSV)",
  license: "License data (PyPI)",
};

function AvailabilityLine(props: { data: DataAvailability; kind: LookupKind }) {
  const missing = props.kind === "vulnerabilities"
    ? props.data.vulnerabilities_unavailable
    : props.data.license_unavailable;
  return (
    <li>
      {NAMES[props.kind]}: {props.data.evaluations === 0
        ? <span class="muted">no evaluation in this window</span>
        : missing > 0
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
export function AvailabilityCard(props: { data: DataAvailability; compiledAt: string }) {
  return (
    <Card title="Data availability" id="data-availability">
      <ul data-testid="data-availability">
        <AvailabilityLine data={props.data} kind="vulnerabilities" />
        <AvailabilityLine data={props.data} kind="license" />
        <li>Registry compiled {formatTime(props.compiledAt)}</li>
      </ul>
    </Card>
  );
}
