/**
 * `policy check PACKAGE`: one evaluation; exit 0/1/2 by verdict (SPEC §15.13).
 *
 * @module
 */

import type { EvaluationResult } from "../api_client.ts";
import { clientFor } from "../client_for.ts";
import { EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { denialSentence, label, provisionalSentence } from "../messages.ts";

/** Options of `check`, built from flags. */
export interface CheckOptions {
  package: string;
  version?: string;
  json: boolean;
  agentModel?: string;
  agentVersion?: string;
}

/** Exit code for a verdict. */
export function verdictExitCode(result: EvaluationResult): number {
  if (result.verdict === "DENIED") return EXIT.DENIED;
  if (result.verdict === "PROVISIONALLY_ALLOWED") return EXIT.PROVISIONAL;
  return EXIT.OK;
}

/** Human rendering of one evaluation. */
export function renderEvaluation(result: EvaluationResult): string {
  if (result.transport_error) return `ALLOWED ${label(result)} (${result.reason})`;
  if (result.verdict === "DENIED") return denialSentence(result);
  if (result.verdict === "PROVISIONALLY_ALLOWED") return provisionalSentence(result);
  const status = result.registry_status ? ` (registry: ${result.registry_status})` : "";
  const reason = result.reason ? `: ${result.reason.replace(/\.$/, "")}` : "";
  return `${label(result)} is ALLOWED${status}${reason}.`;
}

/**
 * The one-line warning of an evaluation decided without some upstream data,
 * or null when every lookup it needed answered.
 *
 * @example
 * ```ts
 * import { missingDataWarning } from "./check.ts";
 * missingDataWarning({
 *   package: "requests", verdict: "ALLOWED", reason: "", cves: [],
 *   data: { vulnerabilities: { status: "unavailable", fetched_at: null }, license: { status: "fresh", fetched_at: "2026-11-23T12:00:00Z" } },
 * }); // "policy: warning: vulnerability data was unavailable for this decision (the server could not reach OSV)"
 * ```
 */
export function missingDataWarning(result: EvaluationResult): string | null {
  const missing = [
    result.data?.vulnerabilities.status === "unavailable" ? "vulnerability" : null,
    result.data?.license.status === "unavailable" ? "license" : null,
  ].filter((m): m is string => m !== null);
  if (missing.length === 0) return null;
  const upstreams = missing.map((m) => (m === "vulnerability" ? "OSV" : "PyPI")).join(" or ");
  return `policy: warning: ${missing.join(" and ")} data was unavailable for this decision ` +
    `(the server could not reach ${upstreams})`;
}

/**
 * One line per supply-chain threat of an evaluation ("policy: threat
 * (typosquat): … similar to requests"), for stderr; empty when none.
 *
 * @example
 * ```ts
 * import { threatLines } from "./check.ts";
 * threatLines({
 *   package: "reqeusts", verdict: "DENIED", reason: "", cves: [],
 *   threats: [{ kind: "typosquat", detail: "`reqeusts` looks like a typo of `requests` (a popular project)", similar_to: ["requests"] }],
 * }); // ["policy: threat (typosquat): `reqeusts` looks like a typo of `requests` (a popular project); similar to requests"]
 * ```
 */
export function threatLines(result: EvaluationResult): string[] {
  return (result.threats ?? []).map((t) =>
    `policy: threat (${t.kind}): ${t.detail}` +
    (t.similar_to?.length ? `; similar to ${t.similar_to.join(", ")}` : "")
  );
}

/** Runs `check`. */
export async function check(options: CheckOptions, io: Io): Promise<number> {
  const { client } = await clientFor(io, {
    source: "check",
    agentModel: options.agentModel,
    agentVersion: options.agentVersion,
  });
  const result = await client.evaluate(options.package, options.version);
  if (result.transport_error) {
    io.stderr(`policy: warning: ${result.reason}\n`);
  }
  const missing = options.json ? null : missingDataWarning(result);
  if (missing) io.stderr(`${missing}\n`);
  if (!options.json) { for (const line of threatLines(result)) io.stderr(`${line}\n`); }
  io.stdout(
    options.json ? JSON.stringify(result, null, 2) + "\n" : renderEvaluation(result) + "\n",
  );
  return verdictExitCode(result);
}
