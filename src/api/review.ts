/**
 * Contracts of the review lifecycle (issue #31): reject or dismiss an
 * approval request, read the registry change log, revert a change.
 *
 * @module
 */
import { z } from "zod";
import { CHANGE_KINDS } from "./enums.ts";
import { defineRoute } from "./contract.ts";
import { requiredText, RULE_OPTIONAL_FIELDS } from "./fragments.ts";
import { ApprovalIdParamsSchema, ApprovalRequestSchema } from "./approvals.ts";
import { ProposalResultSchema } from "./registry.ts";

/** Body of `POST /approval-requests/{id}/reject`. */
export const ApprovalRejectSchema = z.object({
  reason: requiredText(2000, "a reason is required: the requester reads it"),
});

/** Body of `POST /approval-requests/{id}/dismiss`. */
export const ApprovalDismissSchema = z.object({
  reason: z
    .string({ message: "expected a string" })
    .trim()
    .max(2000, { message: "at most 2000 characters" })
    .default(""),
});

/** A registry rule as the change log records it. */
export const ChangedRuleSchema = z.object({
  name: z.string(),
  status: z.string(),
  ...RULE_OPTIONAL_FIELDS,
});

/** One entry of the registry change log. */
export const RegistryChangeSchema = z.object({
  id: z.number().int(),
  ts: z.string(),
  package: z.string(),
  kind: z.enum(CHANGE_KINDS).describe(
    "`applied` (a proposer changed the live registry), `opened`/`amended` (a pull request), " +
      "`logged`, `reloaded` (a reload nobody here proposed: a merged pull request, a hand edit), " +
      "`rejected`/`dismissed` (an operator closed an approval request)",
  ),
  before: ChangedRuleSchema.nullable().describe("the rule before; null: not in the registry"),
  after: ChangedRuleSchema.nullable().describe("the rule after (or proposed); null: removed"),
  actor: z.string().nullable().describe("who: the operator or agent; null for a bare reload"),
  proposer: z.string().nullable(),
  previous_version: z.string().nullable(),
  registry_version: z.string().nullable(),
  url: z.string().nullable().describe("the pull request of a github proposal"),
  reverts: z.number().int().nullable().describe("the entry this change reverts"),
  request_id: z.number().int().nullable().describe("the approval request a decision closed"),
  detail: z.string(),
});

/** Query of `GET /registry/changes`. */
export const ChangesQuerySchema = z.object({
  package: z.string().trim().max(200).optional().describe("one package (normalised)"),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().describe(
    "only entries older than this id (the previous page's last id)",
  ),
});

/** A decision route on one pending request (reject, dismiss): the same answers and errors. */
function decisionRoute(
  action: "reject" | "dismiss",
  summary: string,
  body: z.ZodType,
  status: "REJECTED" | "DISMISSED",
) {
  return defineRoute("post", `/approval-requests/:id/${action}`, {
    summary,
    operator: true,
    params: ApprovalIdParamsSchema,
    body: { contentType: "application/json", schema: body },
    responses: {
      200: { description: `the request, now ${status}`, schema: ApprovalRequestSchema },
    },
    errors: {
      400: `invalid id or ${action === "reject" ? "no reason" : "reason"}`,
      403: "not an operator",
      404: "no such request",
      409: "the request is not pending",
    },
  });
}

/** `POST /approval-requests/{id}/reject`. */
export const approvalRejectRoute = decisionRoute(
  "reject",
  "Reject a pending approval request, with the reason the requester reads.",
  ApprovalRejectSchema,
  "REJECTED",
);

/** `POST /approval-requests/{id}/dismiss`. */
export const approvalDismissRoute = decisionRoute(
  "dismiss",
  "Dismiss a pending approval request (a duplicate, noise) without deciding on the package.",
  ApprovalDismissSchema,
  "DISMISSED",
);

/** `GET /registry/changes`. */
export const registryChangesRoute = defineRoute("get", "/registry/changes", {
  summary: "The registry change log, newest first: who changed which rule, how, and the version.",
  query: ChangesQuerySchema,
  responses: {
    200: {
      description: "entries newest first",
      schema: z.object({ items: z.array(RegistryChangeSchema) }),
    },
  },
  errors: { 400: "invalid query" },
});

/** `POST /registry/changes/{id}/revert`. */
export const registryRevertRoute = defineRoute("post", "/registry/changes/:id/revert", {
  summary: "Revert a change of the live registry through the proposer, as a new change.",
  description: "The rule before the change is proposed again; a change that added the package " +
    "removes its rule (local_file, local_git; other proposers answer `failed`).",
  operator: true,
  params: ApprovalIdParamsSchema,
  responses: {
    200: {
      description: "the proposer's result",
      schema: z.object({ result: ProposalResultSchema, reverts: z.number().int() }),
    },
  },
  errors: {
    400: "invalid id",
    403: "not an operator",
    404: "no such change",
    409: "not a change of the live registry, or the rule changed since",
  },
});
