/**
 * SARIF 2.1.0 rendering of an audit report, for GitHub code scanning
 * (`github/codeql-action/upload-sarif`): one rule per denial category plus
 * one for provisional packages; one result per denied or provisional
 * package, located at the file and line that pins it.
 *
 * @module
 */

import { DENIAL_CATEGORIES } from "../../../src/api/enums.ts";
import type { AuditReport, AuditRow } from "./report.ts";
import { packageLabel, rowDetail } from "./text.ts";

/** Rule id of provisionally allowed packages. */
export const PROVISIONAL_RULE = "PROVISIONALLY_ALLOWED";

/** Rule id of a denial that names no category. */
export const DENIED_RULE = "DENIED";

const RULE_TEXT: Record<string, { name: string; short: string; full: string; severity?: string }> =
  {
    DENIAL_BANNED: {
      name: "BannedPackage",
      short: "Package is banned by the dependency policy",
      full: "The registry bans this package; remove it or use the replacement the policy names.",
      severity: "8.0",
    },
    DENIAL_DEPRECATED: {
      name: "DeprecatedPackage",
      short: "Package is deprecated by the dependency policy",
      full: "The registry marks this package deprecated; migrate to the replacement.",
      severity: "5.0",
    },
    DENIAL_VERSION_CONSTRAINT: {
      name: "VersionOutsidePolicy",
      short: "Version is outside the range the policy allows",
      full: "The registry allows this package only within a version range; change the pin.",
      severity: "5.0",
    },
    DENIAL_CVE: {
      name: "VulnerableVersion",
      short: "Version has known vulnerabilities",
      full: "Known vulnerabilities at or above the policy's threshold affect this version.",
      severity: "9.0",
    },
    DENIAL_LICENSE: {
      name: "DisallowedLicense",
      short: "License is not allowed by the policy",
      full: "The package's license is on the policy's deny list.",
      severity: "6.0",
    },
    DENIAL_LICENSE_UNKNOWN: {
      name: "UnknownLicense",
      short: "License could not be determined",
      full: "The policy denies packages whose license cannot be determined.",
      severity: "4.0",
    },
    DENIAL_DATA_UNAVAILABLE: {
      name: "DataUnavailable",
      short: "Vulnerability or license data was unavailable",
      full:
        "The policy denies packages it could not check (on_missing_data: deny); retry when the data sources answer.",
      severity: "4.0",
    },
    DENIAL_MALICIOUS: {
      name: "MaliciousPackage",
      short: "Package is known malware",
      full:
        "A malicious-package advisory (OSV MAL-…) affects this package; remove it and check the machines that installed it.",
      severity: "10.0",
    },
    DENIAL_NOT_FOUND: {
      name: "PackageNotOnIndex",
      short: "Package or release does not exist on PyPI",
      full:
        "PyPI does not know this name or version; it may be a hallucinated or mistyped name that an attacker can register.",
      severity: "7.0",
    },
    DENIAL_TYPOSQUAT: {
      name: "Typosquat",
      short: "Package name imitates a popular project",
      full: "The name is one edit, an affix or look-alike characters away from a popular project.",
      severity: "8.0",
    },
    DENIAL_NEW_PROJECT: {
      name: "NewProject",
      short: "Project was first released very recently",
      full: "The project is younger than the policy's minimum age (min_project_age_days).",
      severity: "6.0",
    },
    DENIAL_YANKED: {
      name: "YankedRelease",
      short: "Release was yanked from PyPI",
      full: "The pinned release is yanked; pin another release.",
      severity: "5.0",
    },
    [PROVISIONAL_RULE]: {
      name: "ProvisionallyAllowed",
      short: "Package is not yet reviewed by the dependency policy",
      full:
        "The package is allowed provisionally; request an approval (`policy request-approval`).",
    },
  };

const RULE_IDS = [...DENIAL_CATEGORIES, PROVISIONAL_RULE];

function ruleOf(row: AuditRow): string | null {
  if (row.verdict === "DENIED") return row.denial_category ?? DENIED_RULE;
  if (row.verdict === "PROVISIONALLY_ALLOWED" && !row.transport_error) return PROVISIONAL_RULE;
  return null;
}

/**
 * The SARIF log of a report; `version` is the client's version, `pathOf`
 * maps a report file to the path code scanning knows it by (relative to the
 * repository root; default: as reported).
 */
export function renderSarif(
  report: AuditReport,
  version: string,
  pathOf: (file: string) => string = (file) => file,
): Record<string, unknown> {
  const uri = (file: string) => encodeURI(pathOf(file).replace(/\\/g, "/"));
  const rules = RULE_IDS.map((id) => {
    const t = RULE_TEXT[id];
    return {
      id,
      name: t.name,
      shortDescription: { text: t.short },
      fullDescription: { text: t.full },
      defaultConfiguration: { level: id === PROVISIONAL_RULE ? "warning" : "error" },
      properties: {
        tags: ["security", "dependency-policy", "python"],
        ...(t.severity ? { "security-severity": t.severity } : {}),
      },
    };
  });
  const results = report.results.flatMap((row) => {
    const ruleId = ruleOf(row);
    if (ruleId === null) return [];
    const index = RULE_IDS.indexOf(ruleId as typeof RULE_IDS[number]);
    return [{
      ruleId,
      ...(index >= 0 ? { ruleIndex: index } : {}),
      level: ruleId === PROVISIONAL_RULE ? "warning" : "error",
      message: {
        text: `${packageLabel(row)} is ${row.verdict}: ${rowDetail(row)}.`,
      },
      locations: [{
        physicalLocation: {
          artifactLocation: { uri: uri(row.file) },
          region: { startLine: row.line },
        },
      }],
      partialFingerprints: {
        "policydPackage/v1": `${row.package}==${row.version ?? row.specifier ?? ""}`,
      },
      properties: {
        package: row.package,
        version: row.version,
        direct: row.direct,
        verdict: row.verdict,
        denial_category: row.denial_category,
        replacement: row.replacement,
        cves: row.cves,
      },
    }];
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "policyd",
          semanticVersion: version,
          rules,
        },
      },
      artifacts: report.files.map((f) => ({ location: { uri: uri(f.file) } })),
      results,
    }],
  };
}
