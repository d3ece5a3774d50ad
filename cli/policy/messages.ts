/**
 * Human sentences about evaluations, shared by check, audit, precommit and hooks.
 *
 * @module
 */

import type { EvaluationResult } from "./api_client.ts";

/** `name` or `name==version`. */
export function label(result: { package: string; version?: string | null }): string {
  return result.version ? `${result.package}==${result.version}` : result.package;
}

/** One sentence on a DENIED result: reason, category, CVEs and replacement. */
export function denialSentence(result: EvaluationResult): string {
  const parts = [`${label(result)} is DENIED`];
  if (result.denial_category) parts[0] += ` (${result.denial_category})`;
  if (result.reason) parts.push(result.reason.replace(/\.$/, ""));
  // Ids from outside stay data: quoted (JSON escapes controls) and capped (issue 34).
  const cves = result.cves.map((c) => JSON.stringify(c.id.slice(0, 64)));
  if (cves.length) parts.push(`vulnerabilities: advisory ids (from OSV) ${cves.join(", ")}`);
  if (result.replacement && !result.reason?.includes(result.replacement)) {
    parts.push(`use ${result.replacement} instead`);
  }
  return parts.join(": ").replace(/: (vulnerabilities|use )/g, "; $1") + ".";
}

/** One sentence on a PROVISIONALLY_ALLOWED result. */
export function provisionalSentence(result: EvaluationResult): string {
  const reason = result.reason ? `: ${result.reason.replace(/\.$/, "")}` : "";
  return `${label(result)} is PROVISIONALLY_ALLOWED${reason}.`;
}

/** The command that files an approval request for a package. */
export function requestCommand(pkg: string): string {
  return `policy request-approval ${pkg} --rationale "<why it is needed>"`;
}
