/**
 * Rate limiting per caller (`RATE_LIMIT_PER_MINUTE`, off when 0): the
 * authenticated identity's id, or the TCP peer address for anonymous callers
 * (single-user mode's `local` identity is everyone, so it counts by address).
 * A fixed one-minute window per key; over the limit → 429 problem+json with
 * `Retry-After` (seconds until the window ends). `/health` is never limited.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { LOCAL_IDENTITY } from "../../auth/types.ts";
import type { AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";

const WINDOW_MS = 60_000;
const UNLIMITED_PATHS = new Set(["/api/v1/health"]);

/** Counts requests per key in fixed windows; pure apart from the injected clock. */
export class FixedWindowCounter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(readonly limit: number, readonly windowMs = WINDOW_MS) {}

  /** Counts one request; returns 0 when allowed, else the milliseconds until the window ends. */
  hit(key: string, now: number): number {
    let window = this.#windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (this.#windows.size > 100_000) this.#prune(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count++;
    return window.count > this.limit ? window.start + this.windowMs - now : 0;
  }

  #prune(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.start >= this.windowMs) this.#windows.delete(key);
    }
  }
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  perMinute: number;
  /** The TCP peer of a request (null in-process). */
  peer: (c: Context<AppEnv>) => string | null;
  now?: () => number;
}

/** The rate-limit middleware; runs after authentication. */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const counter = new FixedWindowCounter(options.perMinute);
  const now = options.now ?? Date.now;
  return async (c, next) => {
    if (options.perMinute <= 0 || UNLIMITED_PATHS.has(c.req.path)) return await next();
    const identity = c.get("identity");
    const key = identity && identity.id !== LOCAL_IDENTITY.id
      ? `id:${identity.id}`
      : `peer:${options.peer(c) ?? "unknown"}`;
    const waitMs = counter.hit(key, now());
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ProblemError(
        429,
        "rate-limited",
        `more than ${options.perMinute} requests in a minute; retry in ${seconds} s`,
        {},
        { "retry-after": String(seconds) },
      );
    }
    await next();
  };
}
