/**
 * `/dashboard/requests`: every approval request with who filed it, from
 * which agent and source, its rationale, age and outcome; filters; Approve,
 * Reject (with a reason) and Dismiss on pending rows, one at a time or in
 * bulk (issue #31). The actions post to the JSON API (`review.js`).
 *
 * @module
 */
import { APPROVAL_STATUSES } from "../../src/api/enums.ts";
import type { ApprovalRequest } from "../../src/store/types.ts";
import { Card, Empty, PackageLink, PageHeader, Stats, Time } from "../components.tsx";
import { type Column, DataTable } from "../data_table.tsx";
import { type Chrome, Layout } from "../layout.tsx";
import {
  age,
  PROPOSAL_OUTCOME_LABELS,
  proposerSentence,
  REQUEST_STATUS_LABELS,
} from "../review_labels.ts";
import type { RequestsQuery } from "../review_query.ts";

/** View model of the requests page. */
export interface RequestsView {
  chrome: Chrome;
  query: RequestsQuery;
  /** The requests matching the filters, newest first. */
  rows: ApprovalRequest[];
  /** Requests per status over the filters other than status. */
  counts: Record<string, number>;
  /** Projects that filed requests, for the project list. */
  projects: string[];
  /** Whether more rows matched than are shown. */
  truncated: boolean;
  now: Date;
  proposer: string;
  /** The live registry status of each listed package (absent: not in the registry). */
  live: Record<string, string>;
}

function Outcome(props: { row: ApprovalRequest; live: string | undefined }) {
  const r = props.row;
  const since = r.status === "APPROVED" && props.live !== "approved" &&
      props.live !== "preferred" && props.live !== "version-constrained"
    ? (props.live ? `now ${props.live}` : "no longer in the registry")
    : null;
  const proposal = r.proposal_status
    ? PROPOSAL_OUTCOME_LABELS[r.proposal_status] ?? r.proposal_status
    : null;
  return (
    <div class="outcome">
      <span class={`badge ${r.status}`} title={r.status}>{REQUEST_STATUS_LABELS[r.status]}</span>
      {r.decided_at
        ? (
          <span class="muted">
            {" "}
            <Time iso={r.decided_at} />
          </span>
        )
        : null}
      {r.decided_by ? <span class="muted">by {r.decided_by}</span> : null}
      {r.decision_reason ? <p class="decision-reason">“{r.decision_reason}”</p> : null}
      {since
        ? (
          <p class="muted" data-testid="since">
            The rule changed since: {since} (see the{" "}
            <a href={`/dashboard/history?package=${encodeURIComponent(r.package)}`}>history</a>).
          </p>
        )
        : null}
      {r.status === "PENDING_REVIEW" && proposal
        ? <p class="muted" title={r.proposal_status ?? ""}>Proposer: {proposal}</p>
        : null}
    </div>
  );
}

function Actions(props: { row: ApprovalRequest }) {
  const r = props.row;
  if (r.status !== "PENDING_REVIEW") return <span class="muted">—</span>;
  return (
    <div
      class="review-actions"
      data-request={r.id}
      data-package={r.package}
      data-project={r.project}
      data-rationale={r.rationale}
    >
      <button type="button" data-action="approve" hidden>Approve</button>
      <button type="button" class="secondary" data-action="reject" hidden>Reject…</button>
      <button type="button" class="secondary" data-action="dismiss" hidden>Dismiss</button>
      <p class="action-result" role="status" aria-live="polite"></p>
    </div>
  );
}

function Filters(props: { query: RequestsQuery; projects: string[] }) {
  const q = props.query;
  return (
    <form class="filters audit-filters" method="get" action="/dashboard/requests">
      <label>
        Status
        <select name="status">
          <option value="all" selected={q.status === "all"}>All</option>
          {APPROVAL_STATUSES.map((s) => (
            <option value={s} selected={q.status === s}>{REQUEST_STATUS_LABELS[s]}</option>
          ))}
        </select>
      </label>
      <label>
        Project
        <input type="text" name="project" value={q.project ?? ""} list="request-projects" />
        <datalist id="request-projects">
          {props.projects.map((p) => <option key={p} value={p} />)}
        </datalist>
      </label>
      <label>
        Package
        <input type="text" name="package" value={q.package ?? ""} />
      </label>
      <label>
        Agent model (prefix)
        <input type="text" name="agent_model" value={q.agent_model ?? ""} />
      </label>
      <label>
        Source
        <input type="text" name="source" value={q.source ?? ""} />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

const REQUEST_COLUMNS: Column[] = [
  { title: "Select", hidden: true },
  ...[
    "Package",
    "Project",
    "Requester",
    "Agent",
    "Source",
    "Rationale",
    "Filed",
    "Outcome",
    "Actions",
  ].map((title) => ({ title })),
];

function RequestCells(props: { row: ApprovalRequest; view: RequestsView }) {
  const { row: r, view: v } = props;
  return (
    <>
      <td data-label="Select">
        {r.status === "PENDING_REVIEW"
          ? (
            <input
              type="checkbox"
              class="bulk-select"
              value={String(r.id)}
              aria-label={`Select request ${r.id} (${r.package})`}
            />
          )
          : null}
      </td>
      <td data-label="Package">
        <PackageLink name={r.package} />
        {r.version ? <span class="muted">=={r.version}</span> : null}
      </td>
      <td data-label="Project">{r.project}</td>
      <td data-label="Requester">{r.requester}</td>
      <td data-label="Agent">
        {r.agent_model
          ? `${r.agent_model}${r.agent_version ? ` ${r.agent_version}` : ""}`
          : <span class="muted">a person (no agent header)</span>}
      </td>
      <td data-label="Source">{r.source ?? "—"}</td>
      <td data-label="Rationale" class="reason">{r.rationale}</td>
      <td data-label="Filed" data-sort={r.created_at}>
        <span title={r.created_at}>{age(r.created_at, v.now)}</span>
      </td>
      <td data-label="Outcome" data-sort={r.status}>
        <Outcome row={r} live={v.live[r.package]} />
      </td>
      <td data-label="Actions">
        <Actions row={r} />
      </td>
    </>
  );
}

/** The requests page. */
export function RequestsPage(props: { view: RequestsView }) {
  const v = props.view;
  const pending = v.rows.filter((r) => r.status === "PENDING_REVIEW").length;
  return (
    <Layout
      title="Approval requests"
      active="/dashboard/requests"
      chrome={v.chrome}
      scripts={["review.js"]}
    >
      <PageHeader title="Approval requests">
        Every request an agent or a person filed, and what became of it. Approve proposes the
        package as approved: {proposerSentence(v.proposer)} (proposer{" "}
        <code>{v.proposer}</code>). Reject asks for a reason the requester reads; Dismiss closes a
        duplicate or a mistake without deciding on the package. Decisions appear in the{" "}
        <a href="/dashboard/history">registry history</a>.
      </PageHeader>
      <Filters query={v.query} projects={v.projects} />
      {v.query.project && !v.projects.includes(v.query.project)
        ? (
          <p class="notice warn" role="status" data-testid="unknown-project">
            No project named <code>{v.query.project}</code> filed a request
            {v.projects.length ? <>; projects with requests: {v.projects.join(", ")}</> : null}.
          </p>
        )
        : null}
      <Stats
        items={APPROVAL_STATUSES.map((s) => ({
          label: REQUEST_STATUS_LABELS[s],
          value: v.counts[s] ?? 0,
          testid: `count-${s}`,
        }))}
      />
      <Card
        title={`Requests (${v.rows.length}${v.truncated ? ", newest shown" : ""})`}
        id="requests"
      >
        <noscript>
          <p class="notice warn">Approve, Reject and Dismiss need JavaScript.</p>
        </noscript>
        {pending > 1
          ? (
            <div class="bulk-actions" data-testid="bulk-actions" hidden>
              <label>
                Reason for the selected requests
                <input type="text" class="bulk-reason" maxLength={2000} />
              </label>
              <button type="button" class="secondary" data-bulk="reject">Reject selected</button>
              <button type="button" class="secondary" data-bulk="dismiss">Dismiss selected</button>
              <p class="action-result" role="status" aria-live="polite"></p>
            </div>
          )
          : null}
        {v.rows.length
          ? (
            <DataTable
              label="Approval requests"
              testid="requests"
              class="cards requests"
              columns={REQUEST_COLUMNS}
              rows={v.rows}
              rowAttributes={(r) => ({ "data-request-row": r.id, "data-status": r.status })}
              cells={(r) => <RequestCells row={r} view={v} />}
            />
          )
          : <Empty>No approval request matches these filters.</Empty>}
      </Card>
    </Layout>
  );
}
