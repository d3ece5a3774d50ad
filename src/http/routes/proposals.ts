/**
 * `POST /registry/proposals`: an operator proposes a rule through the
 * configured proposer. The route never writes the in-memory registry; the
 * local proposers reload, github and log_only say when the rule goes live.
 *
 * @module
 */
import { Hono } from "hono";
import { ProposalBodySchema } from "../../api/registry.ts";
import { checkRule } from "../../proposers/registry_edit.ts";
import type { ProposalContext, ProposedRule } from "../../proposers/types.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";
import { requireOperator } from "../operator.ts";
import { jsonBody, parseOr400 } from "../validate.ts";

/** The proposals route. */
export function proposalRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post("/registry/proposals", async (c) => {
    requireOperator(c, deps);
    const body = parseOr400(ProposalBodySchema, await jsonBody(c), "proposal");
    const checked = checkRule(body.rule as ProposedRule);
    if (!checked.ok) {
      throw new ProblemError(422, "invalid-rule", "the proposed rule is invalid", {
        errors: checked.errors,
      });
    }
    const call = c.get("context");
    const given = body.context ?? {};
    const agentModel = given.agent_model ?? call.agent_model;
    const agentVersion = given.agent_version ?? call.agent_version;
    // The requester is always the authenticated caller, whatever the body says.
    const context: ProposalContext = {
      source: given.source ?? "operator",
      project: given.project ?? call.project,
      requester: call.requester,
      rationale: given.rationale ?? "",
      ...(agentModel ? { agent_model: agentModel } : {}),
      ...(agentVersion ? { agent_version: agentVersion } : {}),
      extra: given.extra ?? {},
    };
    const result = await deps.approvals.propose(body.rule as ProposedRule, context);
    return c.json({ result });
  });
  return routes;
}
