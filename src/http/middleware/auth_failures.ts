/**
 * Failed authentications are limited per client before the verifier is
 * called (issue 34): a client address with `AUTH_FAILURES_PER_MINUTE`
 * failures in the current minute gets 429 without its credential being
 * looked at, so random bearer tokens cannot turn into one verifier call
 * each, nor queue legitimate logins behind them. Successful logins never
 * count.
 *
 * @module
 */
import type { Authenticator, AuthRequest, Identity } from "../../auth/types.ts";
import { AuthError } from "../../auth/types.ts";
import { ProblemError } from "../problem.ts";

const WINDOW_MS = 60_000;
const MAX_KEYS = 100_000;

/** Options of {@link limitFailedAuthentications}. */
export interface AuthFailureOptions {
  /** Failures per client per minute; 0 = no limit. */
  perMinute: number;
  now?: () => number;
}

/**
 * Wraps an authenticator so that a client over its failure budget is refused
 * with a 429 {@link ProblemError} before the authenticator runs.
 */
export function limitFailedAuthentications(
  inner: Authenticator,
  options: AuthFailureOptions,
): Authenticator {
  if (options.perMinute <= 0) return inner;
  const now = options.now ?? Date.now;
  const failures = new Map<string, { start: number; count: number }>();
  const windowOf = (key: string, at: number) => {
    const window = failures.get(key);
    if (window && at - window.start < WINDOW_MS) return window;
    if (window) failures.delete(key);
    return null;
  };
  return {
    name: inner.name,
    async authenticate(request: AuthRequest): Promise<Identity> {
      const key = request.remoteAddress ?? "unknown";
      const at = now();
      const window = windowOf(key, at);
      if (window && window.count >= options.perMinute) {
        const seconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000));
        throw new ProblemError(
          429,
          "too-many-failed-logins",
          `more than ${options.perMinute} failed authentications in a minute; retry in ${seconds} s`,
          {},
          { "retry-after": String(seconds) },
        );
      }
      try {
        return await inner.authenticate(request);
      } catch (error) {
        if (error instanceof AuthError) {
          const current = windowOf(key, at);
          if (current) current.count++;
          else {
            if (failures.size >= MAX_KEYS) failures.delete(failures.keys().next().value!);
            failures.set(key, { start: at, count: 1 });
          }
        }
        throw error;
      }
    },
  };
}
