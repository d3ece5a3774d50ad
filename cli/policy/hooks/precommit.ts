/**
 * The git pre-commit check: every runtime dependency of the *staged*
 * `pyproject.toml` in one batch evaluation (SPEC §11 "Pre-commit").
 *
 * @module
 */

import type { ApiClient, EvaluationResult } from "../api_client.ts";
import { ClientError } from "../exit_codes.ts";
import { pinnedVersion, runtimeDependencies } from "../pyproject.ts";
import { denialSentence, provisionalSentence, requestCommand } from "../messages.ts";

/** Prefix of the machine-readable stderr line. */
export const DENIED_MARKER = "POLICY_PRECOMMIT_DENIED ";

/** Outcome of a pre-commit run: exit code and the stderr text to print. */
export interface PrecommitResult {
  code: 0 | 1;
  stderr: string;
}

/** Inputs: the staged file (null when not in the index) and a client. */
export interface PrecommitOptions {
  staged: string | null;
  client: Pick<ApiClient, "evaluateBatch" | "serverUrl"> | ClientError;
}

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
 * Runs the check. Exit 0 when nothing is denied (a fail-open transport error
 * passes with a warning); exit 1 on any DENIED with the structured line
 * first, or with a one-line reason when the server cannot be used.
 */
export async function runPrecommit(options: PrecommitOptions): Promise<PrecommitResult> {
  if (options.staged === null) return { code: 0, stderr: "" };
  let deps;
  try {
    deps = runtimeDependencies(options.staged);
  } catch (error) {
    return { code: 1, stderr: `policy precommit: staged ${(error as Error).message}\n` };
  }
  if (deps.size === 0) return { code: 0, stderr: "" };
  const queries = [...deps].map(([name, spec]) => ({
    package: name,
    version: pinnedVersion(spec),
  }));
  let results: EvaluationResult[];
  try {
    if (options.client instanceof ClientError) throw options.client;
    results = await options.client.evaluateBatch(queries);
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    return { code: 1, stderr: `policy precommit: commit blocked: ${error.message}\n` };
  }
  if (results.some((r) => r.transport_error)) {
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
    `policy precommit: commit blocked: ${denied.length} of ${results.length} runtime ` +
    `dependencies in the staged pyproject.toml are denied by the dependency policy.`,
    ...denied.map((r) => `  - ${denialSentence(r)}`),
    `Remove or replace them and stage pyproject.toml again. To ask for an exception: ` +
    requestCommand(denied[0].package),
  ];
  return { code: 1, stderr: `${line}\n${human.join("\n")}\n` };
}
