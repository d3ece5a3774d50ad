/**
 * The pre-commit verdict on the queries of the added dependencies: one batch
 * evaluation and the exit code and stderr text it leads to. Shared by the
 * full check (`hooks/precommit.ts`) and the quick path
 * (`hooks/precommit_quick.ts`); it loads no parser.
 *
 * @module
 */

import type { ApiClient, EvaluationResult } from "../api_client.ts";
import { ClientError } from "../exit_codes.ts";
import { denialSentence, provisionalSentence, requestCommand } from "../messages.ts";
import type { RangeQuery } from "../range_query.ts";

/** Prefix of the machine-readable stderr line. */
export const DENIED_MARKER = "POLICY_PRECOMMIT_DENIED ";

/** Outcome of a pre-commit run: exit code and the stderr text to print. */
export interface PrecommitResult {
  code: 0 | 1;
  stderr: string;
}

/** The client of a pre-commit run, or the reason it could not be built. */
export type PrecommitClient = Pick<ApiClient, "evaluateBatch" | "serverUrl"> | ClientError;

/** The denied item of the structured line, fields in the documented order. */
function deniedItem(r: EvaluationResult) {
  return {
    package: r.package,
    version: r.version ?? null,
    verdict: r.verdict,
    reason: r.reason,
    denial_category: r.denial_category ?? null,
    replacement: r.replacement ?? null,
    cves: r.cves.map((c) => c.id),
  };
}

/**
 * Evaluates `queries` (the added dependencies, at least one) in one batch
 * and words the verdict; `files` are the staged manifests' paths. Exit 0
 * when nothing is denied (a fail-open transport error passes with a
 * warning); exit 1 on any DENIED with the human explanation and then the
 * structured line, or with a one-line reason when the server cannot be used.
 */
export async function judgeQueries(
  queries: RangeQuery[],
  client: PrecommitClient,
  files: string[],
): Promise<PrecommitResult> {
  let results: EvaluationResult[];
  try {
    if (client instanceof ClientError) throw client;
    results = await client.evaluateBatch(queries);
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    return { code: 1, stderr: `policy precommit: commit blocked: ${error.message}\n` };
  }
  // Unchecked (fail-open) results pass, unless a rule decided offline denies.
  if (results.some((r) => r.transport_error) && !results.some((r) => r.verdict === "DENIED")) {
    return {
      code: 0,
      stderr: `policy precommit: warning: dependencies not checked, the policyd server is ` +
        `unreachable (fail_open = true); commit allowed.\n`,
    };
  }
  const denied = results.filter((r) => r.verdict === "DENIED");
  const provisional = results.filter((r) => r.verdict === "PROVISIONALLY_ALLOWED");
  if (!denied.length) {
    const notes = provisional.map((r) => `policy precommit: note: ${provisionalSentence(r)}\n`);
    return { code: 0, stderr: notes.join("") };
  }
  const line = DENIED_MARKER +
    JSON.stringify({ denied: denied.map(deniedItem), checked: results.length });
  const human = [
    `policy precommit: commit blocked: ${deniedCount(denied.length, results.length)} ` +
    `in the staged ${[...new Set(files)].join(", ")} by the dependency policy.`,
    ...denied.map((r) => `  - ${denialSentence(r)}`),
    `Remove or replace them and stage the file again. To ask for an exception: ` +
    requestCommand(denied[0].package),
  ];
  // People read the top: the human explanation first, the structured line last.
  return { code: 1, stderr: `${human.join("\n")}\n${line}\n` };
}

/**
 * "the dependency checked is denied", "all 3 dependencies checked are
 * denied", "1 of the 3 dependencies checked is denied", "2 of the 3 … are".
 *
 * @example
 * ```ts
 * deniedCount(1, 1); // "the dependency checked is denied"
 * ```
 */
export function deniedCount(denied: number, checked: number): string {
  const verb = denied === 1 ? "is" : "are";
  if (checked === 1) return "the dependency checked is denied";
  if (denied === checked) return `all ${checked} dependencies checked are denied`;
  return `${denied} of the ${checked} dependencies checked ${verb} denied`;
}
