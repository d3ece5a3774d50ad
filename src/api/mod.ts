/**
 * The wire contract of the policyd API: one zod contract per route, imported
 * by the routes (validation), the OpenAPI generator, the client and the
 * dashboards. A route added to the app without a contract here fails
 * `tests/integration/contract_test.ts`.
 *
 * @module
 */
import type { RouteContract } from "./contract.ts";
import { evaluateBatchRoute, evaluateRoute } from "./evaluate.ts";
import { approvalCreateRoute, approvalGetRoute, approvalListRoute } from "./approvals.ts";
import {
  registryGetRoute,
  registryParseRoute,
  registryPendingRoute,
  registryProposalRoute,
  registryReloadRoute,
  registryWebhookRoute,
} from "./registry.ts";
import { agentsReportRoute, legalReportRoute, securityReportRoute } from "./reports.ts";
import { auditRoute } from "./audit.ts";
import {
  approvalDismissRoute,
  approvalRejectRoute,
  registryChangesRoute,
  registryRevertRoute,
} from "./review.ts";
import {
  docsPageRoute,
  healthRoute,
  llmsTxtRoute,
  openapiRoute,
  workflowsJsonRoute,
  workflowsMarkdownRoute,
} from "./service.ts";
import { mcpRoute } from "./mcp.ts";
import { INDEX_ROUTES } from "./index.ts";
import { alertMuteRoute, alertRetryRoute, alertsListRoute } from "./alerts.ts";

export * from "./contract.ts";
export * from "./problem.ts";
export * from "./enums.ts";
export * from "./headers.ts";
export * from "./names.ts";
export * from "./evaluate.ts";
export * from "./approvals.ts";
export * from "./registry.ts";
export * from "./reports.ts";
export * from "./audit.ts";
export * from "./review.ts";
export * from "./service.ts";
export * from "./mcp.ts";
export * from "./index.ts";
export * from "./alerts.ts";

/** Every route of the API, in the order the OpenAPI document lists them. */
export const API_ROUTES: readonly RouteContract[] = [
  evaluateRoute,
  evaluateBatchRoute,
  approvalCreateRoute,
  approvalListRoute,
  approvalGetRoute,
  approvalRejectRoute,
  approvalDismissRoute,
  registryGetRoute,
  registryParseRoute,
  registryReloadRoute,
  registryPendingRoute,
  registryProposalRoute,
  registryChangesRoute,
  registryRevertRoute,
  registryWebhookRoute,
  securityReportRoute,
  legalReportRoute,
  agentsReportRoute,
  auditRoute,
  alertsListRoute,
  alertRetryRoute,
  alertMuteRoute,
  healthRoute,
  openapiRoute,
  workflowsMarkdownRoute,
  workflowsJsonRoute,
  mcpRoute,
  llmsTxtRoute,
  docsPageRoute,
  ...INDEX_ROUTES,
];
