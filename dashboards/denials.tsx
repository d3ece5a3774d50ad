/**
 * Denials by category, shared by the overview and the report pages: every
 * category is listed, with its count and its most denied packages, so a
 * category with no denials shows as zero rather than disappearing.
 *
 * @module
 */
import type { ActivityReport, EvaluationDenialCategory } from "../src/reports/activity.ts";
import { StackedDays } from "./charts.tsx";
import {
  Bars,
  CATEGORY_KINDS,
  CATEGORY_LABELS,
  Empty,
  PackageLink,
  TableWrap,
} from "./components.tsx";

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
      days={props.activity.days.map((d) => ({ day: d.day, values: d.denials }))}
    />
  );
}

/** The most denied packages of one category, or an honest empty line. */
export function TopDenied(
  props: {
    activity: ActivityReport;
    category: EvaluationDenialCategory;
    /** Shown when the category had no denial. */
    empty?: string;
  },
) {
  const entry = props.activity.top_denied.find((t) => t.category === props.category);
  const label = CATEGORY_LABELS[props.category];
  if (!entry || entry.packages.length === 0) {
    return <Empty>{props.empty ?? `No ${label.toLowerCase()} denial in this window.`}</Empty>;
  }
  return (
    <TableWrap label={`Most denied packages: ${label}`}>
      <table class="sortable" data-testid={`top-denied-${props.category}`}>
        <thead>
          <tr>
            <th scope="col">Package</th>
            <th scope="col" class="num">Denials</th>
            <th scope="col">Projects</th>
          </tr>
        </thead>
        <tbody>
          {entry.packages.map((p) => (
            <tr>
              <td>
                <PackageLink name={p.package} />
              </td>
              <td class="num">{p.denials}</td>
              <td>{p.projects.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
