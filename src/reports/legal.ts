/**
 * The legal (license) report (SPEC §15.6).
 *
 * @module
 */
import type { RegistrySnapshot } from "../core/types.ts";
import type { AuditReader, AuditRow } from "../store/types.ts";
import {
  type DataAvailability,
  dataAvailability,
  type ExceptionsDue,
  exceptionsDue,
} from "./data_availability.ts";
import { emptyVerdicts, EVALUATION_VERDICTS, windowFilter } from "./params.ts";
import type { ReportParams, VerdictCounts } from "./params.ts";
import { topBy } from "./top.ts";

/** License-driven denial categories. */
export const LICENSE_CATEGORIES = ["DENIAL_LICENSE", "DENIAL_LICENSE_UNKNOWN"] as const;

/** The legal report. */
export interface LegalReport {
  total_denials: number;
  recent_denials: AuditRow[];
  license_breakdown: Array<{ license: string; verdicts: VerdictCounts }>;
  unknown_license: Array<{ license: string; verdicts: VerdictCounts }>;
  top_projects: Array<{ project: string; denials: number }>;
  /** Evaluations whose license was looked up and found UNKNOWN. */
  unknown_licenses: number;
  /** Evaluations whose license could not be looked up (PyPI unavailable): not the same as UNKNOWN. */
  license_unavailable: number;
  /** Evaluations in the window and how many had no vulnerability or license data. */
  data_availability: DataAvailability;
  /** License exceptions expiring within 14 days, and expired ones. */
  exceptions: ExceptionsDue;
}

async function breakdown(audit: AuditReader, params: ReportParams, license?: string) {
  const filter = {
    ...windowFilter(params),
    hasLicense: true,
    verdicts: [...EVALUATION_VERDICTS],
    ...(license ? { license } : {}),
  };
  const groups = await audit.group(filter, ["license", "verdict"]);
  const byLicense = new Map<string, VerdictCounts>();
  for (const g of groups) {
    const name = g.keys.license ?? "UNKNOWN";
    const counts = byLicense.get(name) ?? emptyVerdicts();
    counts[g.keys.verdict as keyof VerdictCounts] += g.count;
    byLicense.set(name, counts);
  }
  const total = (v: VerdictCounts) => v.ALLOWED + v.DENIED + v.PROVISIONALLY_ALLOWED;
  return topBy(
    [...byLicense.entries()].map(([name, verdicts]) => ({ license: name, verdicts })),
    params.limit,
    (l) => total(l.verdicts),
    (l) => l.license,
  );
}

/** Builds the legal report from the audit log. */
export async function legalReport(
  audit: AuditReader,
  params: ReportParams,
  snapshot: RegistrySnapshot | null = null,
): Promise<LegalReport> {
  const denials = { ...windowFilter(params), categories: [...LICENSE_CATEGORIES] };
  const unknownRows = {
    ...windowFilter(params),
    verdicts: [...EVALUATION_VERDICTS],
    license: "UNKNOWN",
  };
  const [total, recent, licenses, unknown, projects, unknownCount, availability] = await Promise
    .all([
      audit.group(denials, []),
      audit.list(denials, params.limit),
      breakdown(audit, params),
      breakdown(audit, params, "UNKNOWN"),
      audit.group(denials, ["project"]),
      audit.group(unknownRows, []),
      dataAvailability(audit, params),
    ]);
  return {
    total_denials: total[0]?.count ?? 0,
    recent_denials: recent,
    license_breakdown: licenses,
    unknown_license: unknown,
    top_projects: topBy(
      projects.map((g) => ({ project: g.keys.project ?? "", denials: g.count })),
      params.limit,
      (p) => p.denials,
      (p) => p.project,
    ),
    unknown_licenses: unknownCount[0]?.count ?? 0,
    license_unavailable: availability.license_unavailable,
    data_availability: availability,
    exceptions: exceptionsDue(snapshot, params.now, (e) => Boolean(e.licenses?.length)),
  };
}
