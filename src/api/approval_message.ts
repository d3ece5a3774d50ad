/**
 * The one sentence every surface (API answer, `policy request-approval`, the
 * agent hook, MCP) uses for a filed approval request. It says the truth: a
 * request approves nothing by itself (SPEC §17.1). Zod-free, so the client's
 * hook path can import it.
 *
 * @module
 */

/**
 * The receipt sentence for approval request `id`.
 *
 * @example
 * ```ts
 * approvalFiledMessage(3); // "filed for review (id 3); not approved yet"
 * ```
 */
export function approvalFiledMessage(id: number): string {
  return `filed for review (id ${id}); not approved yet`;
}
