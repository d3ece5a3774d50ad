/**
 * Small presentational pieces shared by the report pages: stat tiles, the
 * report filter form, badges, bars and the audit-row table.
 *
 * @module
 */
import type { Child } from "hono/jsx";
import type { ReportQuery } from "../src/reports/params.ts";

export { CATEGORY_KINDS, CATEGORY_LABELS, categoryLabel } from "./category_labels.ts";

/** Formats an ISO-8601 timestamp as `2026-11-21 10:03 UTC`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** A `<time>` element for an ISO timestamp. */
export function Time(props: { iso: string | null | undefined }) {
  return props.iso ? <time datetime={props.iso}>{formatTime(props.iso)}</time> : <span>—</span>;
}

/** A coloured label; `kind` becomes its CSS class (a status, verdict or severity). */
export function Badge(props: { kind: string | null | undefined; children?: Child }) {
  const kind = props.kind ?? "none";
  const label = ENUM_LABELS[kind];
  return (
    <span class={`badge ${kind}`} title={label && !props.children ? kind : undefined}>
      {props.children ?? label ?? kind}
    </span>
  );
}

/**
 * Human labels of the enumerations pages show (verdicts, registry
 * statuses); the raw value stays in the badge's tooltip and class.
 */
export const ENUM_LABELS: Record<string, string> = {
  ALLOWED: "Allowed",
  DENIED: "Denied",
  PROVISIONALLY_ALLOWED: "Provisionally allowed",
  CVE_ALERT: "CVE alert (scanner)",
  preferred: "Preferred",
  approved: "Approved",
  "version-constrained": "Version-constrained",
  deprecated: "Deprecated",
  banned: "Banned",
  unlisted: "Not in the registry",
};

/** One stat tile. */
export interface Stat {
  label: string;
  value: string | number;
  /** Smaller type for long values such as versions. */
  small?: boolean;
  testid?: string;
  /** What the figure cannot know (data unavailable for part of the window). */
  caveat?: string | null;
}

/** A row of stat tiles. */
export function Stats(props: { items: Stat[] }) {
  return (
    <ul class="stats">
      {props.items.map((s) => (
        <li class="stat">
          <span class="label">{s.label}</span>
          <span class={s.small ? "value small" : "value"} data-testid={s.testid}>{s.value}</span>
          {s.caveat
            ? (
              <span class="caveat" data-testid={s.testid ? `${s.testid}-caveat` : undefined}>
                {s.caveat}
              </span>
            )
            : null}
        </li>
      ))}
    </ul>
  );
}

/** Horizontal bars, each with a label, a proportional bar and a count. */
export function Bars(
  props: { label: string; items: Array<{ label: string; count: number; kind?: string }> },
) {
  const max = Math.max(1, ...props.items.map((i) => i.count));
  return (
    <ul class="bars" aria-label={props.label}>
      {props.items.map((item) => (
        <li>
          <span>{item.label}</span>
          <span class={`bar ${item.kind ?? ""}`} aria-hidden="true">
            <span style={`width:${Math.round((item.count / max) * 100)}%`}></span>
          </span>
          <span class="num">{item.count}</span>
        </li>
      ))}
    </ul>
  );
}

/** A card section with a heading. */
export function Card(props: { title: string; id?: string; hint?: string; children?: Child }) {
  const headingId = `${props.id ?? slug(props.title)}-title`;
  return (
    <section class="card" id={props.id} aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      {props.hint ? <p class="hint">{props.hint}</p> : null}
      {props.children}
    </section>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** The "nothing here yet" line of an empty table. */
export function Empty(props: { children: Child }) {
  return <p class="empty">{props.children}</p>;
}

/** The GET form that sets `days` and `project` of a report page. */
export function ReportFilters(props: { action: string; query: ReportQuery; apiPath: string }) {
  const dayOptions = [1, 7, 30, 90, 365];
  if (!dayOptions.includes(props.query.days)) dayOptions.push(props.query.days);
  dayOptions.sort((a, b) => a - b);
  return (
    <form class="filters" method="get" action={props.action} aria-label="Report filters">
      <div>
        <label for="days">Window</label>
        <select id="days" name="days">
          {dayOptions.map((d) => (
            <option value={String(d)} selected={d === props.query.days}>
              last {d} {d === 1 ? "day" : "days"}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="project">Project</label>
        <input
          id="project"
          name="project"
          type="text"
          value={props.query.project ?? ""}
          placeholder="all projects"
          list="known-projects"
          autocomplete="off"
        />
      </div>
      <button type="submit">Apply</button>
      <a class="button secondary" href={props.apiPath + props.query.search}>View JSON</a>
    </form>
  );
}

/** The URL of a package's page. */
export function packageHref(name: string): string {
  return `/dashboard/package/${encodeURIComponent(name)}`;
}

/** A package name linking to its page. */
export function PackageLink(props: { name: string }) {
  return (
    <a href={packageHref(props.name)}>
      <code>{props.name}</code>
    </a>
  );
}

/**
 * A scrollable table region: keyboard-focusable, labelled, with a visible
 * scroll shadow when it is wider than the screen.
 */
export function TableWrap(props: { label: string; children?: Child }) {
  return (
    <div class="table-wrap" tabindex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}

/** The page heading with a one-line description. */
export function PageHeader(props: { title: string; children?: Child }) {
  return (
    <header>
      <h1>{props.title}</h1>
      {props.children ? <p>{props.children}</p> : null}
    </header>
  );
}
