/**
 * Contracts of the approval-request routes.
 *
 * @module
 */
import { z } from "zod";
import { APPROVAL_STATUSES, REQUEST_PROPOSAL_STATUSES } from "./enums.ts";
import { defineRoute } from "./contract.ts";
import { PACKAGE_TALLY_FIELDS, requiredText } from "./fragments.ts";
import { PackageSpecSchema } from "./names.ts";
import { API_PATHS } from "./paths.ts";

export { approvalFiledMessage } from "./approval_message.ts";

/** Body of `POST /approval-requests`. */
export const ApprovalCreateSchema = z.object({
  package: PackageSpecSchema.describe(
    "PEP 508 name, optionally `name==1.2`",
  ),
  version: z.string().nullish().describe("PEP 440 version"),
  rationale: requiredText(4000, "a rationale is required"),
});

/** The 202 answer of `POST /approval-requests`. */
export const ApprovalReceiptSchema = z.object({
  id: z.number().int().describe("use it with GET /approval-requests/{id}"),
  package: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  project: z.string(),
  created_at: z.string(),
  message: z.string().describe(
    'what happened, for the requester: "filed for review (id 3); not approved yet"',
  ),
});

/** Query of `GET /approval-requests`. */
export const ApprovalListQuerySchema = z.object({
  status: z
    .enum([...APPROVAL_STATUSES, "all"], {
      message: "expected PENDING_REVIEW, APPROVED, REJECTED, DISMISSED or all",
    })
    .default("PENDING_REVIEW"),
  project: z.string().optional().describe("project (default: the caller's; `*` = all projects)"),
});

/** Requests collapsed per package. */
export const ApprovalListSchema = z.object({
  items: z.array(z.object({
    package: z.string(),
    status: z.enum(APPROVAL_STATUSES),
    ...PACKAGE_TALLY_FIELDS,
    requesters: z.array(z.string()),
    rationale: z.string(),
    last_requested_at: z.string(),
  })),
});

/** Path parameters of `GET /approval-requests/{id}`. */
export const ApprovalIdParamsSchema = z.object({
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** One stored approval request. */
export const ApprovalRequestSchema = z.object({
  id: z.number().int(),
  package: z.string(),
  version: z.string().nullable(),
  project: z.string(),
  requester: z.string(),
  rationale: z.string(),
  agent_model: z.string().nullable(),
  agent_version: z.string().nullable(),
  status: z.enum(APPROVAL_STATUSES),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  proposal_status: z.enum(REQUEST_PROPOSAL_STATUSES).nullable().describe(
    "what became of the request once known: `queued` (waits for an operator; the proposer " +
      "applies at once), `skipped` (the package already has a rule), or the result of the " +
      "proposer fired for it",
  ),
  proposal_detail: z.string().nullable(),
  source: z.string().nullable().optional().describe(
    "the call source the request came through (`hook`, `check`, `mcp`, …); null before v7",
  ),
  decided_by: z.string().nullable().optional().describe(
    "the operator who rejected or dismissed the request",
  ),
  decision_reason: z.string().nullable().optional().describe(
    "why it was rejected or dismissed",
  ),
});

/** `POST /approval-requests`. */
export const approvalCreateRoute = defineRoute("post", API_PATHS.approvalRequests, {
  summary: "Ask the operators to add a package to the registry; the request approves nothing " +
    "by itself (an operator approves through POST /registry/proposals).",
  body: { contentType: "application/json", schema: ApprovalCreateSchema },
  responses: {
    202: {
      description: "stored and queued for review; a proposer reviewed elsewhere (github: the " +
        "pull request) or only logging runs afterwards",
      schema: ApprovalReceiptSchema,
    },
  },
  errors: { 400: "invalid body" },
});

/** `GET /approval-requests`. */
export const approvalListRoute = defineRoute("get", API_PATHS.approvalRequests, {
  summary: "Approval requests collapsed per package (project filter first).",
  query: ApprovalListQuerySchema,
  responses: { 200: { description: "requests collapsed per package", schema: ApprovalListSchema } },
  errors: { 400: "invalid status" },
});

/** `GET /approval-requests/{id}`. */
export const approvalGetRoute = defineRoute("get", "/approval-requests/:id", {
  summary: "One approval request with the outcome of its proposer.",
  params: ApprovalIdParamsSchema,
  responses: { 200: { description: "the request", schema: ApprovalRequestSchema } },
  errors: { 400: "invalid id", 404: "no such request" },
});
