/**
 * The API's URL paths, without zod: the route contracts (`defineRoute`) take
 * their paths from here, and so do the client (`cli/policy/api_client.ts`,
 * on the zod-free fast path) and the app, so no path is written twice.
 *
 * @module
 */

/** Where the JSON API lives. */
export const API_BASE = "/api/v1";

/** Paths (under {@link API_BASE}) of the routes the client and the app name. */
export const API_PATHS = {
  evaluate: "/evaluate",
  evaluateBatch: "/evaluate/batch",
  registry: "/registry",
  registryProposals: "/registry/proposals",
  approvalRequests: "/approval-requests",
  securityReport: "/reports/security",
  health: "/health",
} as const;

/**
 * The full URL path of an API path.
 *
 * @example
 * ```ts
 * apiPath(API_PATHS.health); // "/api/v1/health"
 * ```
 */
export function apiPath(path: (typeof API_PATHS)[keyof typeof API_PATHS]): string {
  return API_BASE + path;
}
