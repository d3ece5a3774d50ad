/**
 * Supply-chain threats on the dashboards (issue #26): a table of threat
 * denials by kind with the most recent ones (security page), and the
 * threats recorded for one package (package page).
 *
 * @module
 */
import type { Threat } from "../src/core/types.ts";
import type { ThreatSummary } from "../src/reports/threats.ts";
import type { AuditRow } from "../src/store/types.ts";
import { Card, Empty, TableWrap } from "./components.tsx";
import { AuditTable } from "./audit_table.tsx";

/** Human names of the threat kinds. */
export const THREAT_LABELS: Record<Threat["kind"], string> = {
  malicious: "Known malicious",
  not_found: "Not on PyPI",
  typosquat: "Look-alike of a popular project",
  new_project: "New project",
  yanked: "Yanked release",
};

/** Threat denials of the window by kind, and the most recent of them. */
export function ThreatsCard(props: { summary: ThreatSummary }) {
  const { by_kind, recent } = props.summary;
  return (
    <Card
      title="Supply-chain threats"
      id="threats"
      hint="Malware, names PyPI does not know, look-alikes, brand-new projects and yanked releases."
    >
      <TableWrap label="Threat denials by kind">
        <table data-testid="threats-by-kind">
          <thead>
            <tr>
              <th scope="col">Threat</th>
              <th scope="col" class="num">Denials</th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(THREAT_LABELS) as Threat["kind"][]).map((kind) => (
              <tr>
                <td>{THREAT_LABELS[kind]}</td>
                <td class="num">{by_kind[kind] ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <AuditTable
        rows={recent}
        caption="Threat denials, newest first."
        empty="No evaluation in this window was denied for a supply-chain threat."
        testid="recent-threats"
        detailed
      />
    </Card>
  );
}

/** The threats of a package's recorded decisions (newest first, one line per distinct threat). */
export function PackageThreatsCard(props: { rows: AuditRow[] }) {
  const seen = new Map<string, Threat>();
  for (const row of props.rows) {
    for (const t of row.threats ?? []) {
      const key = `${t.kind}\u0000${t.id ?? t.detail}`;
      if (!seen.has(key)) seen.set(key, t);
    }
  }
  return (
    <Card title="Threats" id="threats">
      {seen.size
        ? (
          <ul data-testid="package-threats">
            {[...seen.values()].map((t) => (
              <li>
                <strong>{THREAT_LABELS[t.kind]}</strong>: {t.detail}
                {t.similar_to?.length ? ` (similar to ${t.similar_to.join(", ")})` : ""}
              </li>
            ))}
          </ul>
        )
        : <Empty>No recorded decision found a supply-chain threat for this package.</Empty>}
    </Card>
  );
}
