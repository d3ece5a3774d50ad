/**
 * The activity report of the overview: evaluations per day by verdict,
 * denials per day by category, the most denied packages of every category
 * and the most recent decisions. Scanner alerts are not evaluations and are
 * left out.
 *
 * @module
 */
import type { AuditReader, AuditRow } from "../store/types.ts";
import { AUDIT_CATEGORIES } from "./audit_log.ts";
import { emptyVerdicts, EVALUATION_VERDICTS, windowFilter } from "./params.ts";
import type { ReportParams, VerdictCounts } from "./params.ts";
import { topDeniedPackages } from "./top.ts";

/** Denial categories of evaluations (scanner alerts excluded), in display order. */
export const EVALUATION_DENIAL_CATEGORIES = AUDIT_CATEGORIES.filter((c) =>
  c !== "DENIAL_CVE_ALERT"
);

/** One denial category of evaluations. */
export type EvaluationDenialCategory = typeof EVALUATION_DENIAL_CATEGORIES[number];

/** Counts per denial category. */
export type CategoryCounts = Record<EvaluationDenialCategory, number>;

/** The activity report. */
export interface ActivityReport {
  totals: { evaluations: number; verdicts: VerdictCounts; denials_by_category: CategoryCounts };
  /** One entry per UTC day of the window, oldest first, days without rows included. */
  days: Array<{ day: string; verdicts: VerdictCounts; denials: CategoryCounts }>;
  /** The most denied packages of each category (up to `limit` each). */
  top_denied: Array<
    {
      category: EvaluationDenialCategory;
      packages: Array<{ package: string; denials: number; projects: string[]; last_ts: string }>;
    }
  >;
  recent_decisions: AuditRow[];
  /**
   * The first day of the window with rows when nothing was recorded before
   * it (the data starts inside the window: earlier days are not quiet days,
   * they predate the data), else null. Charts start there.
   */
  data_starts: string | null;
}

function emptyCategories(): CategoryCounts {
  return Object.fromEntries(EVALUATION_DENIAL_CATEGORIES.map((c) => [c, 0])) as CategoryCounts;
}

/**
 * The days a chart draws: from where the data starts (days before the first
 * row are not quiet days), the whole window when data precedes it.
 */
export function chartedDays<T extends { day: string }>(
  days: readonly T[],
  dataStarts: string | null,
): T[] {
  return dataStarts ? days.filter((d) => d.day >= dataStarts) : [...days];
}

/** The UTC days from `days - 1` days before `now` up to `now`, as `YYYY-MM-DD`. */
export function dayRange(now: Date, days: number): string[] {
  const out: string[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    out.push(new Date(today - i * 86_400_000).toISOString().slice(0, 10));
  }
  return out;
}

/** Builds the activity report from the audit log. */
export async function activityReport(
  audit: AuditReader,
  params: ReportParams,
): Promise<ActivityReport> {
  const window = windowFilter(params);
  const evaluations = { ...window, verdicts: [...EVALUATION_VERDICTS] };
  const denials = { ...window, categories: [...EVALUATION_DENIAL_CATEGORIES] };
  const { since, ...scope } = window;
  const [perDay, denialsPerDay, perPackage, recent, before, firstDays] = await Promise.all([
    audit.group(evaluations, ["day", "verdict"]),
    audit.group(denials, ["day", "category"]),
    audit.group(denials, ["category", "package"]),
    audit.list(evaluations, params.limit),
    audit.group({ ...scope, until: since }, []),
    audit.group(window, ["day"]),
  ]);
  const earlier = before.reduce((n, g) => n + g.count, 0);
  const withRows = firstDays.map((g) => g.keys.day ?? "").filter(Boolean).sort();
  const data_starts = earlier === 0 && withRows.length ? withRows[0] : null;
  const byDay = new Map(
    dayRange(params.now, Math.min(params.days, 3650)).map((
      day,
    ) => [day, { day, verdicts: emptyVerdicts(), denials: emptyCategories() }]),
  );
  const totals = {
    evaluations: 0,
    verdicts: emptyVerdicts(),
    denials_by_category: emptyCategories(),
  };
  for (const g of perDay) {
    const verdict = g.keys.verdict as keyof VerdictCounts;
    totals.evaluations += g.count;
    totals.verdicts[verdict] += g.count;
    const entry = byDay.get(g.keys.day ?? "");
    if (entry) entry.verdicts[verdict] += g.count;
  }
  for (const g of denialsPerDay) {
    const category = g.keys.category as EvaluationDenialCategory;
    totals.denials_by_category[category] += g.count;
    const entry = byDay.get(g.keys.day ?? "");
    if (entry) entry.denials[category] += g.count;
  }
  const top_denied = EVALUATION_DENIAL_CATEGORIES.map((category) => ({
    category,
    packages: topDeniedPackages(
      perPackage.filter((g) => g.keys.category === category),
      params.limit,
      (g) => ({ projects: g.projects, last_ts: g.last_ts }),
    ),
  }));
  return { totals, days: [...byDay.values()], top_denied, recent_decisions: recent, data_starts };
}
