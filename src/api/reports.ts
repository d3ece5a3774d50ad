/**
 * Contracts of the report routes. The query schema is the single definition
 * of `days`, `limit` and `project` for the API and the dashboard pages.
 *
 * @module
 */
import { z } from "zod";
import { defineRoute } from "./contract.ts";
import { THREAT_KINDS, VERDICTS } from "../core/types.ts";
import { intCounts } from "./fragments.ts";
import { API_PATHS } from "./paths.ts";
import { AuditRowSchema } from "./audit_row.ts";

/** Query of every report: window, list length and project filter. */
export const ReportQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(3650).default(30).describe("window in days"),
  limit: z.coerce.number().int().min(1).max(1000).default(20).describe("length of lists"),
  project: z.string().trim().max(200).optional().describe(
    "only this project (default: header X-Policy-Project, else all; `*` or empty = all)",
  ),
});

/** A parsed report query. */
export type ReportQueryInput = z.infer<typeof ReportQuerySchema>;

/**
 * The project a report covers: the query's, else the header's; null for all
 * projects (`*` or empty).
 *
 * @example
 * ```ts
 * import { reportProject } from "./reports.ts";
 * reportProject({ days: 30, limit: 20, project: "*" }, "web"); // null
 * ```
 */
export function reportProject(query: ReportQueryInput, header?: string | null): string | null {
  const project = query.project || header?.trim() || "";
  return project === "*" || project === "" ? null : project;
}

const VerdictCountsSchema = intCounts(VERDICTS);

export { AuditRowSchema } from "./audit_row.ts";

/** Evaluations in the window and how many lacked each kind of upstream data. */
export const DataAvailabilitySchema = intCounts([
  "evaluations",
  "vulnerabilities_unavailable",
  "license_unavailable",
]);

const ReportedExceptionSchema = z.looseObject({
  package: z.string(),
  reason: z.string(),
  expires: z.string(),
  days_left: z.number().int().describe("0 = expires today; negative once expired"),
});

/** Registry exceptions a report warns about. */
export const ExceptionsDueSchema = z.object({
  expiring: z.array(ReportedExceptionSchema).describe("live, expiring within 14 days"),
  expired: z.array(ReportedExceptionSchema).describe("expired, ignored by evaluations"),
});

/** A package of the security report's `top_packages`. */
export const SecurityTopPackageSchema = z.object({
  package: z.string(),
  denials: z.number().int(),
  max_cvss: z.number().nullable().describe("highest CVSS among the package's denials"),
  cve_ids: z.array(z.string()).describe("the CVE ids its denials named"),
});

/** A CVE of the security report's `top_cves`. */
export const SecurityTopCveSchema = z.object({
  cve: z.string(),
  denials: z.number().int(),
  packages: z.array(z.string()).describe("denied packages the CVE was named for, sorted"),
});

/** A registry package of the security report's `hot_registry_packages`. */
export const HotRegistryPackageSchema = z.object({
  package: z.string(),
  registry_status: z.string(),
  cve_denials: z.number().int(),
  provisional: z.number().int(),
});

/** Denials per CVSS band (critical ≥ 9.0, high ≥ 7.0, medium ≥ 4.0, low > 0, unknown). */
export const SeverityDistributionSchema = intCounts([
  "critical",
  "high",
  "medium",
  "low",
  "unknown",
]);

/** The security (CVE) report. */
export const SecurityReportSchema = z.looseObject({
  total_denials: z.number().int(),
  recent_denials: z.array(AuditRowSchema),
  severity_distribution: SeverityDistributionSchema,
  top_packages: z.array(SecurityTopPackageSchema).describe("most denied first, ties by name"),
  top_cves: z.array(SecurityTopCveSchema).describe("most denying first, ties by id"),
  hot_registry_packages: z.array(HotRegistryPackageSchema).describe(
    "allowing registry packages with CVE denials or provisional answers",
  ),
  recent_alerts: z.array(AuditRowSchema),
  data_availability: DataAvailabilitySchema,
  exceptions: ExceptionsDueSchema,
  threats: z.object({
    by_kind: z.record(z.enum(THREAT_KINDS), z.number().int()).describe(
      "supply-chain threat denials in the window per kind",
    ),
    recent: z.array(AuditRowSchema).describe("the most recent threat denials, newest first"),
  }),
});

/** The legal (licence) report. */
export const LegalReportSchema = z.looseObject({
  total_denials: z.number().int(),
  recent_denials: z.array(AuditRowSchema),
  license_breakdown: z.array(z.object({ license: z.string(), verdicts: VerdictCountsSchema })),
  unknown_license: z.array(z.object({ license: z.string(), verdicts: VerdictCountsSchema })),
  top_projects: z.array(z.object({ project: z.string(), denials: z.number().int() })),
  unknown_licenses: z.number().int().describe("evaluations whose license was looked up: UNKNOWN"),
  license_unavailable: z.number().int().describe("evaluations without license data (PyPI down)"),
  data_availability: DataAvailabilitySchema,
  exceptions: ExceptionsDueSchema,
});

/** The agents report. */
export const AgentsReportSchema = z.looseObject({
  agents: z.array(z.looseObject({
    agent_model: z.string(),
    agent_version: z.string().nullable(),
    evaluations: z.number().int(),
    verdicts: VerdictCountsSchema,
    denials: z.number().int(),
    sources: z.record(z.string(), z.number().int()).describe(
      "evaluations per call source (check, hook, precommit, audit, api, mcp)",
    ),
  })),
  people: z.object({
    evaluations: z.number().int(),
    denials: z.number().int(),
    sources: z.record(z.string(), z.number().int()),
  }).describe(
    "within (unknown agent): calls from check, audit and precommit, i.e. people at a terminal or in CI",
  ),
});

function reportRoute(path: string, summary: string, schema: z.ZodType) {
  return defineRoute("get", path, {
    summary,
    query: ReportQuerySchema,
    responses: { 200: { description: "the report", schema } },
    errors: { 400: "invalid days, limit or project" },
  });
}

/** `GET /reports/security`. */
export const securityReportRoute = reportRoute(
  API_PATHS.securityReport,
  "CVE report: denials, severities, top packages and CVEs, scanner alerts.",
  SecurityReportSchema,
);

/** `GET /reports/legal`. */
export const legalReportRoute = reportRoute(
  "/reports/legal",
  "Licence report: denials, licence breakdown, unknown licences, top projects.",
  LegalReportSchema,
);

/** `GET /reports/agents`. */
export const agentsReportRoute = reportRoute(
  "/reports/agents",
  "Agent activity report: evaluations per agent model and version.",
  AgentsReportSchema,
);
