/**
 * Everything known about one package: its registry rule, the latest
 * decision per project, its history, the CVEs and licence of its latest
 * evaluations. Backs `/dashboard/package/:name`.
 *
 * @module
 */
import { normalizeName } from "../core/names.ts";
import type { PackageRule, RegistrySnapshot } from "../core/types.ts";
import type { AuditReader, AuditRow } from "../store/types.ts";

/** How many audit rows the package view reads. */
export const PACKAGE_HISTORY_ROWS = 1000;

/** A package's report. */
export interface PackageReport {
  /** The normalised name. */
  name: string;
  /** The live registry rule, null when the registry does not list the package. */
  rule: PackageRule | null;
  /** Rules that name this package as their replacement. */
  replaces: string[];
  /** The newest evaluation of each project that asked, newest first. */
  projects: AuditRow[];
  /** Evaluations and scanner alerts, newest first (up to `limit`). */
  history: AuditRow[];
  /** Rows in the history over all time (may exceed `history.length`). */
  total: number;
  /** CVE ids of the newest evaluation or alert that looked them up, highest score first. */
  cves: { ids: string[]; max_cvss: number | null; seen_at: string | null };
  /** The licence of the newest evaluation that looked it up. */
  license: { license: string; license_raw: string | null; seen_at: string } | null;
}

/** Builds the package report; `limit` bounds the history shown. */
export async function packageReport(
  audit: AuditReader,
  snapshot: RegistrySnapshot,
  rawName: string,
  limit: number,
): Promise<PackageReport> {
  const name = normalizeName(rawName.trim());
  const [rows, total] = await Promise.all([
    audit.list({ package: name }, PACKAGE_HISTORY_ROWS),
    audit.group({ package: name }, []),
  ]);
  const latestByProject = new Map<string, AuditRow>();
  for (const row of rows) {
    if (row.verdict === "CVE_ALERT") continue;
    if (!latestByProject.has(row.project)) latestByProject.set(row.project, row);
  }
  const withCves = rows.find((row) => row.cve_ids.length > 0);
  const withLicense = rows.find((row) => row.license !== null);
  return {
    name,
    rule: snapshot.byName.get(name) ?? null,
    replaces: snapshot.registry.packages
      .filter((rule) => rule.replacement && normalizeName(rule.replacement) === name)
      .map((rule) => rule.name),
    projects: [...latestByProject.values()],
    history: rows.slice(0, limit),
    total: total[0]?.count ?? 0,
    cves: {
      ids: withCves?.cve_ids ?? [],
      max_cvss: withCves?.max_cvss ?? null,
      seen_at: withCves?.ts ?? null,
    },
    license: withLicense
      ? {
        license: withLicense.license ?? "",
        license_raw: withLicense.license_raw,
        seen_at: withLicense.ts,
      }
      : null,
  };
}
