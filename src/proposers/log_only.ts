/**
 * The `log_only` proposer: logs the proposal and changes nothing durable.
 * Selected when nothing else is configured (with a start-up warning).
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import { checkRule, describeErrors } from "./registry_edit.ts";
import type { Proposer } from "./types.ts";

/**
 * Creates the log-only proposer.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { ProposalContext, ProposedRule } from "./types.ts";
 * declare const rule: ProposedRule;
 * declare const context: ProposalContext;
 * const proposer = createLogOnlyProposer(log);
 * (await proposer.propose(rule, context)).status; // "logged"
 * ```
 */
export function createLogOnlyProposer(log: Logger): Proposer {
  return {
    name: "log_only",
    appliesAtOnce: false,
    propose(rule, context) {
      const checked = checkRule(rule);
      if (!checked.ok) {
        return Promise.resolve({
          backend: "log_only",
          status: "failed",
          detail: `invalid rule: ${describeErrors(checked.errors)}`,
        });
      }
      log.info("registry proposal (log_only: nothing is written)", {
        rule: checked.rule,
        source: context.source,
        project: context.project,
        requester: context.requester,
      });
      return Promise.resolve({
        backend: "log_only",
        status: "logged",
        detail: `the log_only proposer only logged the rule for ${checked.rule.name}; ` +
          "nothing was written, so it is not live — add it to the registry YAML (or configure " +
          "local_file, local_git or github as REGISTRY_PROPOSER)",
      });
    },
    withdraw(name, context) {
      log.info("registry removal (log_only: nothing is written)", {
        name,
        source: context.source,
        requester: context.requester,
      });
      return Promise.resolve({
        backend: "log_only",
        status: "logged",
        detail: `the log_only proposer only logged the removal of ${name}; nothing was written`,
      });
    },
  };
}
