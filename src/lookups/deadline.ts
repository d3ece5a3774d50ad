/**
 * One deadline for many lookups (a batch): the lookup sources wrapped so
 * that, once the deadline passes, every lookup still running or not yet
 * started answers `{status: "unavailable"}` at once. A batch of any size thus
 * keeps the single-evaluation bound (SPEC §15.10: total lookup time under
 * 2 × `LOOKUP_TIMEOUT_MS`).
 *
 * @module
 */
import type { LicenseSource, VulnerabilitySource } from "./types.ts";

/** Lookup time of a batch: under the single-evaluation bound of 2 × `LOOKUP_TIMEOUT_MS`. */
export function batchDeadlineMs(lookupTimeoutMs: number): number {
  return Math.floor(lookupTimeoutMs * 1.75);
}

/**
 * Starts `work` unless the deadline passed; answers `late()` when it passes
 * first. `pending` holds the answers still waiting, settled by the one abort
 * listener of {@link withDeadline} (a listener per lookup cost a batch of 50
 * about 0.1 ms of `addEventListener` and `removeEventListener`).
 */
function race<T>(
  work: () => Promise<T>,
  signal: AbortSignal,
  pending: Set<() => void>,
  late: () => T,
): Promise<T> {
  if (signal.aborted) return Promise.resolve(late());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(late());
    pending.add(onAbort);
    work().then(resolve, reject).finally(() => pending.delete(onAbort));
  });
}

/**
 * Wraps both sources with a shared deadline signal.
 *
 * @example
 * ```ts ignore
 * const bounded = withDeadline(sources, AbortSignal.timeout(batchDeadlineMs(4000)));
 * await bounded.vulnerabilities.query("requests", null); // unavailable once the deadline passed
 * ```
 */
export function withDeadline(
  sources: { vulnerabilities: VulnerabilitySource; licenses: LicenseSource },
  signal: AbortSignal,
): { vulnerabilities: VulnerabilitySource; licenses: LicenseSource } {
  const detail = "the batch's lookup deadline passed before this lookup answered";
  const late = () => ({ status: "unavailable" as const, detail });
  const pending = new Set<() => void>();
  signal.addEventListener("abort", () => {
    for (const onAbort of pending) onAbort();
    pending.clear();
  }, { once: true });
  return {
    vulnerabilities: {
      query: (name, version) =>
        race(() => sources.vulnerabilities.query(name, version), signal, pending, late),
    },
    licenses: {
      lookup: (name, version) =>
        race(() => sources.licenses.lookup(name, version), signal, pending, late),
    },
  };
}
