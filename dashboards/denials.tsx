/**
 * Denials by category, shared by the overview and the report pages: every
 * category is listed, with its count and its most denied packages, so a
 * category with no denials shows as zero rather than disappearing.
 *
 * @module
 */
import type { ActivityReport, EvaluationDenialCategory } from "../src/reports/activity.ts";
import { chartedDays } from "../src/reports/activity.ts";
import type { DataAvailability } from "../src/reports/data_availability.ts";
import { emptyText } from "./data_banner.tsx";
import { StackedDays } from "./charts.tsx";
import { DataTable, PackageCell } from "./data_table.tsx";
import { Bars, CATEGORY_KINDS, CATEGORY_LABELS, Empty } from "./components.tsx";

/** One bar per denial category, every category listed. */
export function CategoryBars(
  props: { activity: ActivityReport; categories?: readonly EvaluationDenialCategory[] },
) {
  const categories = props.categories ??
    props.activity.top_denied.map((t) => t.category);
  return (
    <Bars
      label="Denials per category"
      items={categories.map((c) => ({
        label: CATEGORY_LABELS[c],
        count: props.activity.totals.denials_by_category[c],
        kind: CATEGORY_KINDS[c],
      }))}
    />
  );
}

/** Denials per day, stacked by category. */
export function DenialsPerDay(
  props: {
    activity: ActivityReport;
    categories?: readonly EvaluationDenialCategory[];
    wide?: boolean;
  },
) {
  const categories = props.categories ??
    props.activity.top_denied.map((t) => t.category);
  return (
    <StackedDays
      id={`denials-per-day-${categories.length}`}
      title="Denials per day by category"
      unit="denials"
      wide={props.wide}
      series={categories.map((c) => ({
        key: c,
        label: CATEGORY_LABELS[c],
        kind: CATEGORY_KINDS[c],
      }))}
      days={chartedDays(props.activity.days, props.activity.data_starts).map((d) => ({
        day: d.day,
        values: d.denials,
      }))}
    />
  );
}

/** What an empty category says; categories that rest on upstream data name it. */
const EMPTY: Record<EvaluationDenialCategory, [string, "vulnerabilities" | "license" | null]> = {
  DENIAL_BANNED: ["No banned package was asked for in this window.", null],
  DENIAL_DEPRECATED: ["No deprecated package was asked for in this window.", null],
  DENIAL_VERSION_CONSTRAINT: ["No version outside a registry range was asked for.", null],
  DENIAL_CVE: ["No CVE denials in this window.", "vulnerabilities"],
  DENIAL_LICENSE: ["No license denials in this window.", "license"],
  DENIAL_LICENSE_UNKNOWN: ["No unknown-license denials in this window.", "license"],
  DENIAL_DATA_UNAVAILABLE: ["No evaluation was denied for missing upstream data.", null],
  DENIAL_MALICIOUS: ["No known malicious package was asked for.", "vulnerabilities"],
  DENIAL_NOT_FOUND: ["No name PyPI does not know was asked for.", "license"],
  DENIAL_TYPOSQUAT: ["No look-alike of a popular project was asked for.", null],
  DENIAL_NEW_PROJECT: [
    "No project younger than the policy's minimum age was asked for.",
    "license",
  ],
  DENIAL_YANKED: ["No yanked release was asked for.", "license"],
};

/**
 * The most denied packages of one category, or an honest empty line: with
 * `availability`, a category that rests on upstream data never claims an
 * all-clear over evaluations that lacked it.
 */
export function TopDenied(
  props: {
    activity: ActivityReport;
    category: EvaluationDenialCategory;
    availability?: DataAvailability;
  },
) {
  const entry = props.activity.top_denied.find((t) => t.category === props.category);
  const label = CATEGORY_LABELS[props.category];
  if (!entry || entry.packages.length === 0) {
    const [sentence, kind] = EMPTY[props.category];
    return (
      <Empty>
        {kind && props.availability ? emptyText(props.availability, kind, sentence) : sentence}
      </Empty>
    );
  }
  return (
    <DataTable
      label={`Most denied packages: ${label}`}
      testid={`top-denied-${props.category}`}
      columns={[{ title: "Package" }, { title: "Denials", num: true }, { title: "Projects" }]}
      rows={entry.packages}
      cells={(p) => (
        <>
          <PackageCell name={p.package} />
          <td class="num">{p.denials}</td>
          <td>{p.projects.join(", ")}</td>
        </>
      )}
    />
  );
}
