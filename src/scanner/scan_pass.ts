/**
 * One pass of the CVE scanner (SPEC §6.2, §15.12, §15.22): every registry
 * package is queried by name (all versions) through the injected scan source
 * (`src/lookups/osv_scan.ts`: OSV's batch API, records cached by id +
 * `modified`, merged and scored like a lookup), scoped per `unversioned_cve_scope` like a version-less
 * evaluation, and a `CVE_ALERT` audit row is written when the in-scope
 * highest score reaches `cve_threshold` (whatever `block_on_cve` says) and
 * the set of in-scope ids differs from the package's last alert.
 *
 * It also watches for malicious-package advisories (SPEC §17.2): for every
 * registry package and every package the audit log saw in the last 30 days,
 * an advisory affecting any version writes an alert row (category
 * `DENIAL_MALICIOUS`, the advisories in `threats`) once per set of ids.
 *
 * The pass never changes the registry. (The scan source also refreshes the
 * lookup cache's version-less OSV entries, since it has just computed them.)
 *
 * @module
 */
import type { CompiledRegistry, PackageRule, Threat, Vulnerability } from "../core/types.ts";
import { THREAT_DETAILS } from "../core/reasons.ts";
import { vulnerabilitiesInScope } from "../core/evaluate.ts";
import type { ScannerOptions } from "./settings.ts";
import type { Logger } from "../log/logger.ts";
import type { AuditStore, NewAuditRow } from "../store/types.ts";
import type { LicenseSource, VulnerabilityScanSource } from "../lookups/types.ts";
import { forEachLimit } from "../core/for_each_limit.ts";

/** `requester` of scanner rows (SPEC §8). */
export const SCANNER_REQUESTER = "cve-scanner";
/** `source` of scanner rows: not a client call source, so reports can tell them apart. */
export const SCANNER_SOURCE = "scanner";

/** What a pass needs. */
export interface ScanPassDeps {
  /** Every known vulnerability of many packages at once (OSV's batch API in production). */
  vulnerabilities: VulnerabilityScanSource;
  /** The `scanner` area's project name (the rows' `project`). */
  scanner: Pick<ScannerOptions, "projectName">;
  /** The registry as it is when the pass starts. */
  registry: CompiledRegistry;
  /** For the latest release of each affected package (use the cached PyPI source). */
  licenses: LicenseSource;
  audit: Pick<AuditStore, "insert" | "lastAlert" | "group">;
  log: Logger;
  /** Clock of the audit-log window; default the system clock. */
  now?: () => Date;
  /** PyPI lookups and audit writes in flight at once. Default 16. */
  concurrency?: number;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((id) => sa.has(id));
}

/** How far back the audit log names packages the scanner watches for malicious advisories. */
export const WATCH_AUDITED_DAYS = 30;

/** The malicious advisories among `vulnerabilities`, as threats sorted by id. */
function maliciousThreats(vulnerabilities: Vulnerability[]): Threat[] {
  return vulnerabilities.filter((v) => v.malicious).map((v) => {
    const id = v.aliases.find((a) => a.startsWith("MAL-")) ?? v.id;
    return { kind: "malicious" as const, id, detail: THREAT_DETAILS.malicious(id, v.summary) };
  }).sort((a, b) => a.id.localeCompare(b.id));
}

function sameThreats(a: readonly Threat[] | undefined, b: readonly Threat[]): boolean {
  return sameIds((a ?? []).map((t) => t.id ?? ""), b.map((t) => t.id ?? ""));
}

/** The fields every scanner row shares: the server's project and identity, no client context. */
function scannerRow(
  deps: ScanPassDeps,
  name: string,
  rule: PackageRule | undefined,
  row: Pick<
    NewAuditRow,
    "version" | "denial_category" | "cve_ids" | "max_cvss" | "reason" | "threats"
  >,
): NewAuditRow {
  return {
    package: name,
    license: null,
    verdict: "CVE_ALERT",
    project: deps.scanner.projectName,
    requester: SCANNER_REQUESTER,
    agent_model: null,
    agent_version: null,
    source: SCANNER_SOURCE,
    registry_status: rule?.status ?? null,
    registry_version: deps.registry.version,
    license_raw: null,
    ...row,
  };
}

function maliciousRow(
  deps: ScanPassDeps,
  name: string,
  rule: PackageRule | undefined,
  threats: Threat[],
): NewAuditRow {
  const one = threats.length === 1;
  return scannerRow(deps, name, rule, {
    version: null,
    denial_category: "DENIAL_MALICIOUS",
    cve_ids: [],
    max_cvss: null,
    reason: `Malware scan: ${name} has ${one ? "a" : threats.length} malicious-package ` +
      `${one ? "advisory" : "advisories"}: ${threats.map((t) => t.id).join(", ")}`,
    threats,
  });
}

/** Names the audit log saw in the last {@link WATCH_AUDITED_DAYS} days. */
async function auditedNames(deps: ScanPassDeps): Promise<string[]> {
  const now = (deps.now ?? (() => new Date()))();
  const since = new Date(now.getTime() - WATCH_AUDITED_DAYS * 86_400_000).toISOString();
  try {
    const groups = await deps.audit.group({ since }, ["package"]);
    return groups.map((g) => g.keys.package ?? "").filter(Boolean);
  } catch (error) {
    deps.log.warn("cve scan: cannot read audited packages", { detail: String(error) });
    return [];
  }
}

function alertRow(
  deps: ScanPassDeps,
  rule: PackageRule,
  version: string | null,
  inScope: Vulnerability[],
  maxScore: number,
): NewAuditRow {
  const threshold = deps.registry.policies.cve_threshold;
  const ids = inScope.map((v) => v.id).sort();
  return scannerRow(deps, rule.name, rule, {
    version,
    denial_category: "DENIAL_CVE_ALERT",
    cve_ids: ids,
    max_cvss: maxScore,
    reason: `CVE scan: ${ids.length} ${ids.length === 1 ? "vulnerability" : "vulnerabilities"} ` +
      `in scope${version === null ? "" : ` of ${version}`}, highest CVSS ${maxScore} ` +
      `at or above the threshold ${threshold}: ${ids.join(", ")}`,
  });
}

/**
 * Runs one scan pass and returns the number of alert rows written. Never
 * throws for upstream trouble: packages whose data could not be had are
 * skipped (and logged), so a partial answer never produces a spurious alert.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import type { LicenseSource, VulnerabilityScanSource } from "../lookups/types.ts";
 * import type { AuditStore } from "../store/types.ts";
 * declare const live: LiveRegistry;
 * declare const vulnerabilities: VulnerabilityScanSource;
 * declare const licenses: LicenseSource;
 * declare const audit: AuditStore;
 * const registry = live.current().registry;
 * const rows = await runScanPass({
 *   vulnerabilities,
 *   scanner: { projectName: "policyd" },
 *   registry,
 *   licenses,
 *   audit,
 *   log,
 * });
 * ```
 */
export async function runScanPass(deps: ScanPassDeps): Promise<number> {
  const started = performance.now();
  const { registry, log } = deps;
  const concurrency = deps.concurrency ?? 16;
  const rules = registry.packages;
  const byName = new Map(rules.map((r) => [r.name, r]));
  const audited = (await auditedNames(deps)).filter((name) => !byName.has(name));
  const names = [...rules.map((r) => r.name), ...audited];
  const scan = await deps.vulnerabilities.scan(names);

  let written = 0;
  const skipped = scan.failed.size;
  await forEachLimit(names, concurrency, async (name) => {
    const vulnerabilities = scan.vulnerabilities.get(name);
    if (vulnerabilities === undefined) return;
    const rule = byName.get(name);
    const threats = maliciousThreats(vulnerabilities);
    if (threats.length) {
      const last = await deps.audit.lastAlert(name);
      if (last?.denial_category !== "DENIAL_MALICIOUS" || !sameThreats(last.threats, threats)) {
        await deps.audit.insert(maliciousRow(deps, name, rule, threats));
        written++;
      }
      return;
    }
    if (vulnerabilities.length === 0 || rule === undefined) return;
    const policies = registry.policies;
    let latest: string | null = null;
    if (policies.unversioned_cve_scope === "latest") {
      const facts = await deps.licenses.lookup(rule.name, null);
      latest = facts.status === "ok" ? facts.latest_version : null;
    }
    const inScope = vulnerabilitiesInScope(vulnerabilities, null, policies, latest);
    const scores = inScope.map((v) => v.score).filter((s): s is number => s !== null);
    const maxScore = scores.length > 0 ? Math.max(...scores) : null;
    if (maxScore === null || maxScore < policies.cve_threshold) return;
    const last = await deps.audit.lastAlert(rule.name);
    if (last !== undefined && sameIds(last.cve_ids, inScope.map((v) => v.id))) return;
    await deps.audit.insert(alertRow(deps, rule, latest, inScope, maxScore));
    written++;
  });

  log.info("cve scan pass finished", {
    packages: rules.length,
    audited: audited.length,
    alerts: written,
    skipped,
    batch_calls: scan.calls.batch,
    detail_calls: scan.calls.detail,
    duration_ms: Math.round(performance.now() - started),
  });
  return written;
}
