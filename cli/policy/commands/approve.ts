/**
 * `policy approve PACKAGE [--status …] [--reason …]`: an operator's approval.
 * It calls the operator API (`POST /registry/proposals`), so in org mode it
 * needs an operator's token; the server's proposer writes the rule, and the
 * reload approves the package's pending requests when the rule allows it.
 * An approval request (`policy request-approval`) never does this by itself
 * (SPEC §17.1).
 *
 * @module
 */

import type { ProposedRuleInput } from "../api_client.ts";
import { clientFor } from "../client_for.ts";
import { ClientError, EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { normalizeName } from "../../../src/core/names.ts";

/** Options of `approve`. */
export interface ApproveOptions {
  package: string;
  status: string;
  reason?: string;
  replacement?: string;
  minVersion?: string;
  maxVersion?: string;
  json: boolean;
}

/** What each proposer outcome means for the operator, in one clause. */
const OUTCOME: Record<string, string> = {
  applied: "the rule is live",
  opened: "a proposal was opened; the rule goes live once it is merged",
  amended: "the open proposal was amended; the rule goes live once it is merged",
  logged: "the server only logs proposals (log_only); the rule is NOT live",
  failed: "the server could not apply the rule",
};

/** The rule `approve` sends: only the fields given. */
export function ruleOf(options: ApproveOptions): ProposedRuleInput {
  const rule: ProposedRuleInput = {
    name: options.package.trim(),
    status: options.status as ProposedRuleInput["status"], // commander checked the choice
  };
  if (options.reason?.trim()) rule.reason = options.reason.trim();
  if (options.replacement) rule.replacement = options.replacement;
  if (options.minVersion) rule.min_version = options.minVersion;
  if (options.maxVersion) rule.max_version = options.maxVersion;
  return rule;
}

/** Runs `approve`; 0 when the server's proposer did not fail. */
export async function approve(options: ApproveOptions, io: Io): Promise<number> {
  if (!/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(options.package.trim())) {
    throw new ClientError("usage", `"${options.package}" is not a package name`);
  }
  const { client } = await clientFor(io, { source: "check" });
  const rule = ruleOf(options);
  const result = await client.proposeRule(rule, rule.reason ?? "");
  if (options.json) {
    io.stdout(JSON.stringify(result, null, 2) + "\n");
  } else {
    const what = OUTCOME[result.status] ?? result.status;
    io.stdout(
      `${normalizeName(rule.name)}: ${rule.status} (${result.backend}: ${result.status}); ` +
        `${what}.\n${result.detail}\n`,
    );
  }
  return result.status === "failed" ? EXIT.SERVER_ERROR : EXIT.OK;
}
