/**
 * The state of the upstream services (OSV, PyPI) as `/health` reports it:
 * `unknown` until the first call, then `ok` or `failing` after the latest
 * call, with the times of the last success and the last error. Error texts
 * and URLs are redacted of credentials before they are kept.
 *
 * @module
 */

/** The upstream services policyd calls. */
export const UPSTREAMS = ["osv", "pypi"] as const;

/** One of {@link UPSTREAMS}. */
export type UpstreamName = typeof UPSTREAMS[number];

/** The state of one upstream. */
export interface UpstreamState {
  status: "ok" | "failing" | "unknown";
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
}

/** Records upstream outcomes; read by `/health`. */
export interface UpstreamHealth {
  success(name: UpstreamName): void;
  failure(name: UpstreamName, detail: string): void;
  snapshot(): Record<UpstreamName, UpstreamState>;
}

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
export function createUpstreamHealth(now: () => Date = () => new Date()): UpstreamHealth {
  const states = new Map<UpstreamName, UpstreamState>(
    UPSTREAMS.map((name) => [name, {
      status: "unknown",
      last_success_at: null,
      last_error_at: null,
      last_error: null,
    }]),
  );
  return {
    success(name) {
      const state = states.get(name)!;
      state.status = "ok";
      state.last_success_at = now().toISOString();
    },
    failure(name, detail) {
      const state = states.get(name)!;
      state.status = "failing";
      state.last_error_at = now().toISOString();
      state.last_error = redactCredentials(detail);
    },
    snapshot() {
      return Object.fromEntries(
        UPSTREAMS.map((name) => [name, { ...states.get(name)! }]),
      ) as Record<UpstreamName, UpstreamState>;
    },
  };
}
