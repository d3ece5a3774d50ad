/**
 * `/dashboard/alerts`: recent alert deliveries (one row per event and
 * destination) with their state, and the operator's actions: retry a dead or
 * waiting delivery now, mute one that should not go out (issue #32).
 *
 * @module
 */
import type { OutboxBacklog, OutboxRow } from "../../src/store/types.ts";
import {
  Badge,
  Card,
  Empty,
  PackageLink,
  PageHeader,
  Stats,
  TableWrap,
  Time,
} from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the alerts page. */
export interface AlertsView {
  chrome: Chrome;
  rows: OutboxRow[];
  backlog: OutboxBacklog;
  destinations: string[];
  /** The outcome of the action just taken, if any. */
  notice: string | null;
}

function Action(props: { id: number; action: "retry" | "mute" }) {
  return (
    <form method="post" action={`/dashboard/alerts/${props.id}/${props.action}`} class="inline">
      <button type="submit" data-testid={`${props.action}-${props.id}`}>
        {props.action === "retry" ? "Retry" : "Mute"}
      </button>
    </form>
  );
}

/** The alerts page. */
export function AlertsPage(props: { view: AlertsView }) {
  const { chrome, rows, backlog, destinations, notice } = props.view;
  return (
    <Layout title="Alerts" active="/dashboard/alerts" chrome={chrome}>
      <PageHeader title="Alerts">
        Events delivered to {destinations.length ? destinations.join(", ") : "no destination"}{" "}
        (settings <code>ALERTS_*</code>, docs/alerts.md). JSON:{" "}
        <a href="/api/v1/alerts">/api/v1/alerts</a>.
      </PageHeader>
      {notice ? <p role="status" data-testid="notice">{notice}</p> : null}
      <Stats
        items={[
          { label: "Waiting", value: backlog.pending, testid: "alerts-pending" },
          { label: "Dead-lettered", value: backlog.dead, testid: "alerts-dead" },
        ]}
      />
      <Card title="Recent deliveries">
        {rows.length === 0
          ? <Empty>No alerts yet.</Empty>
          : (
            <TableWrap label="Recent alert deliveries">
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Event</th>
                    <th>Severity</th>
                    <th>Package</th>
                    <th>Title</th>
                    <th>Destination</th>
                    <th>State</th>
                    <th>Tries</th>
                    <th>Last error</th>
                    <th>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr data-testid={`alert-${row.id}`}>
                      <td>
                        <Time iso={row.occurred_at} />
                      </td>
                      <td>
                        <code>{row.kind}</code>
                      </td>
                      <td>
                        <Badge kind={row.severity}>{row.severity}</Badge>
                      </td>
                      <td>{row.package ? <PackageLink name={row.package} /> : "—"}</td>
                      <td>{row.title}</td>
                      <td>{row.destination}</td>
                      <td data-testid={`state-${row.id}`}>{row.state}</td>
                      <td>{row.attempts}</td>
                      <td>{row.last_error ?? ""}</td>
                      <td>
                        {row.state === "delivered" ? null : (
                          <>
                            <Action id={row.id} action="retry" />
                            {row.state === "muted" ? null : <Action id={row.id} action="mute" />}
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
      </Card>
    </Layout>
  );
}
