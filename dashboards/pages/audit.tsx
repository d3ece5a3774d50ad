/**
 * `/dashboard/audit`: the audit-log browser. Filters (project, package,
 * verdict, category, agent model, source, time window) in a plain GET form,
 * pages of rows newest first, and CSV or JSON export of every filtered row.
 * The same query drives `GET /api/v1/audit`.
 *
 * @module
 */
import { AUDIT_CATEGORIES, AUDIT_VERDICTS } from "../../src/reports/audit_log.ts";
import type { AuditPage as AuditPageData, AuditQuery } from "../../src/reports/audit_log.ts";
import { CALL_SOURCES } from "../../src/store/types.ts";
import { Card, categoryLabel, ENUM_LABELS, PageHeader } from "../components.tsx";
import { AuditTable } from "../audit_table.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the audit browser. */
export interface AuditView {
  chrome: Chrome;
  query: AuditQuery;
  /** The raw query parameters, to refill the form and build links. */
  raw: Record<string, string>;
  page: AuditPageData;
}

/** The filter parameters (everything but paging), for links and exports. */
const FILTERS = [
  "project",
  "package",
  "verdict",
  "category",
  "agent_model",
  "source",
  "days",
  "since",
  "until",
] as const;

/** The query string of the filters in `raw` (empty values dropped), with extras. */
export function filterSearch(raw: Record<string, string>, extra: Record<string, string> = {}) {
  const search = new URLSearchParams();
  for (const key of FILTERS) {
    const value = raw[key]?.trim();
    if (value) search.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

function TextFilter(
  props: { id: string; label: string; value?: string; placeholder: string; list?: string },
) {
  return (
    <div>
      <label for={`f-${props.id}`}>{props.label}</label>
      <input
        id={`f-${props.id}`}
        name={props.id}
        type="text"
        value={props.value ?? ""}
        placeholder={props.placeholder}
        autocomplete="off"
        list={props.list}
      />
    </div>
  );
}

function SelectFilter(
  props: {
    id: string;
    label: string;
    value?: string;
    options: ReadonlyArray<{ value: string; label: string }>;
  },
) {
  return (
    <div>
      <label for={`f-${props.id}`}>{props.label}</label>
      <select id={`f-${props.id}`} name={props.id}>
        <option value="">any</option>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>{o.label}</option>
        ))}
      </select>
    </div>
  );
}

/** The audit-log browser page. */
export function AuditPage(props: { view: AuditView }) {
  const { chrome, query, raw, page } = props.view;
  const pageNumber = Math.max(1, Number.parseInt(raw.page ?? "1", 10) || 1);
  const first = (pageNumber - 1) * query.limit + 1;
  const last = first + page.items.length - 1;
  const limitExtra: Record<string, string> = raw.limit ? { limit: String(query.limit) } : {};
  const next = page.next_cursor
    ? `/dashboard/audit${
      filterSearch(raw, { ...limitExtra, cursor: page.next_cursor, page: String(pageNumber + 1) })
    }`
    : null;
  const firstPage = `/dashboard/audit${filterSearch(raw, limitExtra)}`;
  return (
    <Layout title="Audit log" active="/dashboard/audit" chrome={chrome}>
      <PageHeader title="Audit log">
        Every decision policyd recorded, newest first: evaluations and scanner alerts. Filter, page
        through, and export exactly the rows you filtered.
      </PageHeader>
      <form
        class="filters audit-filters"
        method="get"
        action="/dashboard/audit"
        aria-label="Audit filters"
      >
        <TextFilter
          id="project"
          label="Project"
          value={raw.project}
          placeholder="all projects"
          list="known-projects"
        />
        <TextFilter id="package" label="Package" value={raw.package} placeholder="any package" />
        <SelectFilter
          id="verdict"
          label="Verdict"
          value={raw.verdict}
          options={AUDIT_VERDICTS.map((v) => ({ value: v, label: ENUM_LABELS[v] ?? v }))}
        />
        <SelectFilter
          id="category"
          label="Category"
          value={raw.category}
          options={AUDIT_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }))}
        />
        <TextFilter
          id="agent_model"
          label="Agent model"
          value={raw.agent_model}
          placeholder="any agent"
        />
        <SelectFilter
          id="source"
          label="Source"
          value={raw.source}
          options={CALL_SOURCES.map((s) => ({ value: s, label: s }))}
        />
        <SelectFilter
          id="days"
          label="Window"
          value={raw.days}
          options={[1, 7, 30, 90, 365].map((d) => ({
            value: String(d),
            label: `last ${d} ${d === 1 ? "day" : "days"}`,
          }))}
        />
        <div>
          <label for="f-since">From</label>
          <input id="f-since" name="since" type="date" value={raw.since?.slice(0, 10) ?? ""} />
        </div>
        <div>
          <label for="f-until">To</label>
          <input id="f-until" name="until" type="date" value={raw.until?.slice(0, 10) ?? ""} />
        </div>
        <div class="row">
          <button type="submit">Apply</button>
          <a class="button secondary" href="/dashboard/audit">Clear</a>
        </div>
      </form>
      <Card title="Rows" id="rows">
        <div class="row between">
          <p class="muted" data-testid="audit-summary" role="status">
            {page.total === 0
              ? "No row matches these filters."
              : `Rows ${first}–${last} of ${page.total} matching.`}
          </p>
          <p class="row">
            <a class="button secondary" href={`/dashboard/audit/export.csv${filterSearch(raw)}`}>
              Export CSV
            </a>
            <a class="button secondary" href={`/dashboard/audit/export.json${filterSearch(raw)}`}>
              Export JSON
            </a>
            <a class="button secondary" href={`/api/v1/audit${filterSearch(raw, limitExtra)}`}>
              View API
            </a>
          </p>
        </div>
        <AuditTable
          rows={page.items}
          caption="Audit rows, newest first."
          empty="Nothing to show. Widen the window or clear a filter."
          testid="audit-rows"
          detailed
        />
        <nav class="pager row" aria-label="Pages">
          {pageNumber > 1 ? <a href={firstPage}>← First page</a> : null}
          <span class="muted">Page {pageNumber}</span>
          {next ? <a href={next} rel="next" data-testid="next-page">Next page →</a> : null}
        </nav>
      </Card>
    </Layout>
  );
}
