/**
 * `/dashboard/history`: the registry change log (issue #31): who changed
 * which rule when, the rule before and after, the proposer, the registry
 * version before and after, the pull request of a `github` proposal, and
 * the operators' decisions on requests. A change that reached the live
 * registry, and whose rule is still live, can be reverted (`review.js`
 * posts `POST /api/v1/registry/changes/{id}/revert`).
 *
 * @module
 */
import type { ChangedRule, RegistryChange } from "../../src/store/types.ts";
import { Badge, Card, Empty, PageHeader, Time } from "../components.tsx";
import { type Column, DataTable, PackageCell } from "../data_table.tsx";
import { type Chrome, Layout } from "../layout.tsx";
import { CHANGE_KIND_LABELS } from "../review_labels.ts";
import type { HistoryQuery } from "../review_query.ts";

/** View model of the history page. */
export interface HistoryView {
  chrome: Chrome;
  query: HistoryQuery;
  /** Entries newest first, with whether each can be reverted now. */
  entries: Array<RegistryChange & { revertible: boolean }>;
  /** The id to pass as `before` for the next page, or null. */
  nextBefore: number | null;
  proposer: string;
}

function Rule(props: { rule: ChangedRule | null; empty: string }) {
  const r = props.rule;
  if (!r) return <span class="muted">{props.empty}</span>;
  const bounds = [r.min_version && `≥ ${r.min_version}`, r.max_version && `≤ ${r.max_version}`]
    .filter(Boolean).join(", ");
  return (
    <span class="rule">
      <Badge kind={r.status} />
      {bounds ? <span class="muted">{bounds}</span> : null}
      {r.replacement ? <span class="muted">→ {r.replacement}</span> : null}
      {r.reason ? <span class="rule-reason">“{r.reason}”</span> : null}
    </span>
  );
}

function What(props: { entry: RegistryChange }) {
  const e = props.entry;
  const decision = e.kind === "rejected" || e.kind === "dismissed";
  return (
    <div>
      <span class={`badge kind-${e.kind}`} title={e.kind}>{CHANGE_KIND_LABELS[e.kind]}</span>
      {e.reverts ? <span class="muted">(reverts change #{e.reverts})</span> : null}
      {decision && e.request_id
        ? (
          <p>
            Request #{e.request_id}
            {e.detail ? <>: “{e.detail}”</> : null}
          </p>
        )
        : null}
      {e.url
        ? (
          <p>
            <a href={e.url} rel="noreferrer">Pull request</a>
          </p>
        )
        : null}
    </div>
  );
}

const HISTORY_COLUMNS: Column[] = [
  "When",
  "Package",
  "What",
  "Rule before",
  "Rule after",
  "Who",
  "Proposer",
  "Registry version",
  "Revert",
].map((title) => ({ title }));

function ChangeCells(props: { entry: HistoryView["entries"][number] }) {
  const e = props.entry;
  return (
    <>
      <td data-label="When" data-sort={e.ts}>
        <Time iso={e.ts} />
        <span class="muted">#{e.id}</span>
      </td>
      <PackageCell name={e.package} label="Package" />
      <td data-label="What">
        <What entry={e} />
      </td>
      <td data-label="Before">
        <Rule rule={e.before} empty="not in the registry" />
      </td>
      <td data-label="After">
        {e.kind === "rejected" || e.kind === "dismissed"
          ? <span class="muted">unchanged</span>
          : <Rule rule={e.after} empty="removed from the registry" />}
      </td>
      <td data-label="Who">{e.actor ?? <span class="muted">—</span>}</td>
      <td data-label="Proposer">{e.proposer ?? <span class="muted">—</span>}</td>
      <td data-label="Version">
        {e.previous_version && e.previous_version !== e.registry_version
          ? (
            <span>
              <code>{e.previous_version}</code> → <code>{e.registry_version}</code>
            </span>
          )
          : <code>{e.registry_version ?? "—"}</code>}
      </td>
      <td data-label="Revert">
        {e.revertible
          ? (
            <div class="revert-action" data-change={e.id} data-package={e.package}>
              <button type="button" class="secondary" data-action="revert" hidden>
                Revert
              </button>
              <p class="action-result" role="status" aria-live="polite"></p>
            </div>
          )
          : <span class="muted">—</span>}
      </td>
    </>
  );
}

/** The history page. */
export function HistoryPage(props: { view: HistoryView }) {
  const v = props.view;
  const filter = v.query.package;
  return (
    <Layout
      title="Registry history"
      active="/dashboard/history"
      chrome={v.chrome}
      scripts={["review.js"]}
    >
      <PageHeader title="Registry history">
        Every change of the registry's rules (through the {v.proposer}{" "}
        proposer or a reload of the registry file) and every decision on an approval request, newest
        first. Revert proposes the rule before the change again, as a new change.
      </PageHeader>
      <form class="filters" method="get" action="/dashboard/history">
        <label>
          Package
          <input type="text" name="package" value={filter ?? ""} />
        </label>
        <button type="submit">Apply</button>
        {filter ? <a href="/dashboard/history">All packages</a> : null}
      </form>
      <Card title={filter ? `Changes of ${filter}` : "Changes"} id="changes">
        {v.entries.length
          ? (
            <DataTable
              label="Registry changes"
              testid="history"
              class="cards history"
              columns={HISTORY_COLUMNS}
              rows={v.entries}
              rowAttributes={(e) => ({ "data-change": e.id, "data-kind": e.kind })}
              cells={(e) => <ChangeCells entry={e} />}
            />
          )
          : (
            <Empty>
              {filter
                ? `No change of ${filter} has been recorded.`
                : "No registry change has been recorded yet."}
            </Empty>
          )}
        {v.nextBefore
          ? (
            <p>
              <a
                href={`/dashboard/history?${new URLSearchParams({
                  ...(filter ? { package: filter } : {}),
                  before: String(v.nextBefore),
                })}`}
              >
                Older changes
              </a>
            </p>
          )
          : null}
      </Card>
    </Layout>
  );
}
