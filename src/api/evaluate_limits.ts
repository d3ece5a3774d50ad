/**
 * The numbers of the evaluation contract, without zod: the client's check
 * path reads them without loading the schemas (docs/performance.md,
 * "Client start-up"). `evaluate.ts` re-exports them.
 *
 * @module
 */

/** Largest batch accepted (SPEC §7). */
export const MAX_BATCH = 500;

/** The server's default `LOOKUP_TIMEOUT_MS` (per upstream request). */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 4000;

/**
 * Longest the server spends on lookups for one evaluation, and for one whole
 * batch (one shared deadline): 2 × `LOOKUP_TIMEOUT_MS` (SPEC §15.10).
 */
export const LOOKUP_BOUND_MS = 2 * DEFAULT_LOOKUP_TIMEOUT_MS;

/** The client's default time limit: the server's lookup bound plus 2 s for the audit write and transport. */
export const DEFAULT_CLIENT_TIMEOUT_MS = LOOKUP_BOUND_MS + 2000;
