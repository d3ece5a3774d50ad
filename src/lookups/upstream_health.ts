/**
 * The state of the upstream services (OSV, PyPI) as `/health` reports it:
 * `unknown` until the first call, then `ok` or `failing` after the latest
 * call, with the times of the last success and the last error. Error texts
 * and URLs are redacted of credentials before they are kept.
 *
 * It is also each upstream's circuit breaker: a failure opens it, and while
 * it is open lookups skip the upstream at once ({@link UpstreamHealth.admit})
 * instead of waiting for a time-out; after the retry interval one lookup is
 * let through as a probe (`half_open`), whose success closes the breaker and
 * whose failure opens it for another interval.
 *
 * @module
 */

/** The upstream services policyd calls. */
export const UPSTREAMS = ["osv", "pypi"] as const;

/** One of {@link UPSTREAMS}. */
export type UpstreamName = typeof UPSTREAMS[number];

/** Time an open breaker skips its upstream before letting one probe through. */
export const DEFAULT_RETRY_INTERVAL_MS = 30_000;

/** The circuit breaker's state: calls pass, are skipped, or one probe is out. */
export type BreakerState = "closed" | "open" | "half_open";

/** The state of one upstream. */
export interface UpstreamState {
  status: "ok" | "failing" | "unknown";
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  /** `open`: lookups skip this upstream until `retry_at`. */
  breaker: BreakerState;
  /** When an open breaker lets the next probe through; null when closed. */
  retry_at: string | null;
}

/** Records upstream outcomes and gates calls (circuit breaker); read by `/health`. */
export interface UpstreamHealth {
  success(name: UpstreamName): void;
  failure(name: UpstreamName, detail: string): void;
  /**
   * Asks to call `name` now: null when the call may go ahead (breaker
   * closed, or this call is the half-open probe), else why it is skipped.
   * A skipped call records nothing.
   */
  admit(name: UpstreamName): string | null;
  snapshot(): Record<UpstreamName, UpstreamState>;
}

/** Options of {@link createUpstreamHealth}. */
export interface UpstreamHealthOptions {
  /** Milliseconds an open breaker skips its upstream; default {@link DEFAULT_RETRY_INTERVAL_MS}. */
  retryIntervalMs?: number;
}

const LABELS: Record<UpstreamName, string> = { osv: "OSV", pypi: "PyPI" };

/**
 * Removes credentials from a text: `user:password@` in URLs and the values of
 * query parameters that look like secrets.
 *
 * @example
 * ```ts
 * import { redactCredentials } from "./upstream_health.ts";
 * redactCredentials("GET https://u:p@osv.example/v1?token=abc failed");
 * // "GET https://***@osv.example/v1?token=*** failed"
 * ```
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1***@")
    .replace(
      /([?&](?:access_token|token|api[_-]?key|key|secret|password|passwd|auth|sig|signature)=)[^&#\s]+/gi,
      "$1***",
    );
}

/**
 * Creates the tracker.
 *
 * @example
 * ```ts
 * import { createUpstreamHealth } from "./upstream_health.ts";
 * const health = createUpstreamHealth(() => new Date("2026-11-23T12:00:00Z"));
 * health.failure("osv", "POST https://api.osv.dev/v1/query timed out");
 * health.snapshot().osv.status; // "failing"
 * ```
 */
export function createUpstreamHealth(
  now: () => Date = () => new Date(),
  options: UpstreamHealthOptions = {},
): UpstreamHealth {
  const retryMs = options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS;
  const states = new Map<UpstreamName, UpstreamState>(
    UPSTREAMS.map((name) => [name, {
      status: "unknown",
      last_success_at: null,
      last_error_at: null,
      last_error: null,
      breaker: "closed",
      retry_at: null,
    }]),
  );
  return {
    success(name) {
      const state = states.get(name)!;
      state.status = "ok";
      state.last_success_at = now().toISOString();
      state.breaker = "closed";
      state.retry_at = null;
    },
    failure(name, detail) {
      const state = states.get(name)!;
      const at = now();
      state.status = "failing";
      state.last_error_at = at.toISOString();
      state.last_error = redactCredentials(detail);
      state.breaker = "open";
      state.retry_at = new Date(at.getTime() + retryMs).toISOString();
    },
    admit(name) {
      const state = states.get(name)!;
      if (state.breaker === "closed") return null;
      if (state.breaker === "open" && now().getTime() >= Date.parse(state.retry_at!)) {
        state.breaker = "half_open"; // this call is the probe
        return null;
      }
      return `${
        LABELS[name]
      } skipped: it failed at ${state.last_error_at} (${state.last_error}); ` +
        (state.breaker === "half_open"
          ? "a retry is under way"
          : `the next try is after ${state.retry_at}`);
    },
    snapshot() {
      return Object.fromEntries(
        UPSTREAMS.map((name) => [name, { ...states.get(name)! }]),
      ) as Record<UpstreamName, UpstreamState>;
    },
  };
}
