/**
 * Names of the call-context request headers (SPEC §7), as they go on the
 * wire: the one definition the server's app, the client and the header
 * documentation (`headers.ts`) read. Free of zod, so the client's fast paths
 * may load it.
 *
 * @module
 */

/** The call-context headers, lower case (HTTP header names are case-insensitive). */
export const CONTEXT_HEADER_NAMES = {
  project: "x-policy-project",
  source: "x-policy-source",
  agentModel: "x-policy-agent-model",
  agentVersion: "x-policy-agent-version",
} as const;

/**
 * A header name as the documentation writes it.
 *
 * @example
 * ```ts
 * import { displayHeaderName } from "./header_names.ts";
 * displayHeaderName("x-policy-agent-model"); // "X-Policy-Agent-Model"
 * ```
 */
export function displayHeaderName(name: string): string {
  return name.replace(
    /(^|-)([a-z])/g,
    (_, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}
