/**
 * The security (CVE) report (SPEC §15.6, §15.19). Only `DENIAL_CVE` rows
 * count as denials; scanner alerts are listed apart and never counted.
 *
 * @module
 */
import type { z } from "zod";
import type {
  HotRegistryPackageSchema,
  SecurityTopCveSchema,
  SecurityTopPackageSchema,
  SeverityDistributionSchema,
} from "../api/reports.ts";
import type { RegistrySnapshot } from "../core/types.ts";
import type { AuditReader, AuditRow } from "../store/types.ts";
import { type ReportParams, windowFilter } from "./params.ts";
import {
  type DataAvailability,
  dataAvailability,
  type ExceptionsDue,
  exceptionsDue,
} from "./data_availability.ts";
import { type ThreatSummary, threatSummary } from "./threats.ts";
import { topBy, topDeniedPackages } from "./top.ts";

/**
 * The security report. Its own fields are inferred from the contract
 * (`src/api/reports.ts`), so the OpenAPI schema and the answer cannot drift.
 */
export interface SecurityReport {
  total_denials: number;
  recent_denials: AuditRow[];
  severity_distribution: z.infer<typeof SeverityDistributionSchema>;
  top_packages: Array<z.infer<typeof SecurityTopPackageSchema>>;
  top_cves: Array<z.infer<typeof SecurityTopCveSchema>>;
  hot_registry_packages: Array<z.infer<typeof HotRegistryPackageSchema>>;
  recent_alerts: AuditRow[];
  /** Evaluations in the window and how many had no vulnerability or license data. */
  data_availability: DataAvailability;
  /** Vulnerability exceptions expiring within 14 days, and expired ones. */
  exceptions: ExceptionsDue;
  /** Supply-chain threat denials by kind, and the most recent (issue #26). */
  threats: ThreatSummary;
}

const ALLOWING = new Set(["preferred", "approved", "version-constrained"]);

/** Builds the security report; `snapshot` supplies the registry for hot packages. */
export async function securityReport(
  audit: AuditReader,
  params: ReportParams,
  snapshot: RegistrySnapshot | null,
): Promise<SecurityReport> {
  const window = windowFilter(params);
  const denials = { ...window, categories: ["DENIAL_CVE" as const] };
  const [
    total,
    recent,
    severities,
    packages,
    cvePackageGroups,
    provisional,
    alerts,
    availability,
    threats,
  ] = await Promise.all([
    audit.group(denials, []),
    audit.list(denials, params.limit),
    audit.group(denials, ["severity"]),
    audit.group(denials, ["package"]),
    // One query for both: a CVE's denials are the sum over its packages (a row counts once per CVE).
    audit.group(denials, ["cve", "package"]),
    // Provisional rows from before the package was in the registry are history, not a signal.
    audit.group(
      { ...window, verdicts: ["PROVISIONALLY_ALLOWED"], registryKnown: true },
      ["package"],
    ),
    // Scanner alerts concern registry packages, not a project: the window applies, the project does not.
    audit.list({ since: window.since, verdicts: ["CVE_ALERT"] }, params.limit),
    dataAvailability(audit, params),
    threatSummary(audit, window, params.limit),
  ]);
  const distribution = { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 };
  for (const g of severities) distribution[g.keys.severity as keyof typeof distribution] += g.count;

  const cves = new Map<string, { denials: number; packages: Set<string> }>();
  for (const g of cvePackageGroups) {
    const cve = cves.get(g.keys.cve ?? "") ?? { denials: 0, packages: new Set<string>() };
    cve.denials += g.count;
    cve.packages.add(g.keys.package ?? "");
    cves.set(g.keys.cve ?? "", cve);
  }

  const hot: SecurityReport["hot_registry_packages"] = [];
  if (snapshot) {
    const cveCounts = new Map(packages.map((g) => [g.keys.package, g.count]));
    const provisionalCounts = new Map(provisional.map((g) => [g.keys.package, g.count]));
    for (const rule of snapshot.registry.packages) {
      if (!ALLOWING.has(rule.status)) continue;
      const cve = cveCounts.get(rule.name) ?? 0;
      const prov = provisionalCounts.get(rule.name) ?? 0;
      if (cve + prov > 0) {
        hot.push({
          package: rule.name,
          registry_status: rule.status,
          cve_denials: cve,
          provisional: prov,
        });
      }
    }
  }

  return {
    total_denials: total[0]?.count ?? 0,
    recent_denials: recent,
    severity_distribution: distribution,
    top_packages: topDeniedPackages(
      packages,
      params.limit,
      (g) => ({ max_cvss: g.max_cvss, cve_ids: g.cve_ids }),
    ),
    top_cves: topBy(
      [...cves.entries()].map(([cve, { denials, packages }]) => ({
        cve,
        denials,
        packages: [...packages].sort(),
      })),
      params.limit,
      (c) => c.denials,
      (c) => c.cve,
    ),
    hot_registry_packages: topBy(
      hot,
      params.limit,
      (h) => h.cve_denials + h.provisional,
      (h) => h.package,
    ),
    recent_alerts: alerts,
    data_availability: availability,
    exceptions: exceptionsDue(snapshot, params.now, (e) => Boolean(e.vulnerabilities?.length)),
    threats,
  };
}
