/**
 * One proposer call with its failures contained: a throw, an answer that is
 * not a `ProposalResult`, or no answer within the time-out becomes a
 * `failed` result with a detail (SPEC §9: never a 5xx).
 *
 * @module
 */
import type { ProposalResult } from "../proposers/types.ts";
import { PROPOSAL_STATUSES } from "../proposers/types.ts";

function isResult(value: unknown): value is ProposalResult {
  const v = value as ProposalResult | null;
  return typeof v === "object" && v !== null &&
    (PROPOSAL_STATUSES as readonly string[]).includes(v.status);
}

/** Options of {@link guardedCall}. */
export interface GuardOptions {
  backend: string;
  timeoutMs: number;
  /** Running timers, so a shutdown can stop them. */
  timers: Set<ReturnType<typeof setTimeout>>;
}

/**
 * Runs `call` and turns throws, junk and time-outs into `failed` results.
 *
 * @example
 * ```ts
 * const timers = new Set<ReturnType<typeof setTimeout>>();
 * const result = await guardedCall(() => Promise.reject(new Error("boom")), {
 *   backend: "local_file",
 *   timeoutMs: 1000,
 *   timers,
 * });
 * result.status; // "failed"
 * ```
 */
export async function guardedCall(
  call: () => Promise<ProposalResult>,
  options: GuardOptions,
): Promise<ProposalResult> {
  const { backend, timeoutMs, timers } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<ProposalResult>((resolve) => {
    timer = setTimeout(() => {
      resolve({
        backend,
        status: "failed",
        detail: `the proposer did not answer within ${timeoutMs / 1000} s`,
      });
    }, timeoutMs);
    timers.add(timer!);
  });
  const attempt = Promise.resolve()
    .then(call)
    .then(
      (result): ProposalResult =>
        isResult(result) ? result : {
          backend,
          status: "failed",
          detail: "the proposer returned something that is not a ProposalResult",
        },
      (error): ProposalResult => ({
        backend,
        status: "failed",
        detail: `the proposer threw: ${(error as Error)?.message ?? String(error)}`.slice(0, 600),
      }),
    );
  try {
    return await Promise.race([attempt, timedOut]);
  } finally {
    clearTimeout(timer);
    timers.delete(timer!);
  }
}
