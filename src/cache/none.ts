/**
 * A cache that stores nothing (`REDIS_URL=none`).
 *
 * @module
 */
import type { Cache } from "./types.ts";

/** Creates a cache that always misses. */
export function createNoCache(): Cache {
  return {
    get: () => Promise.resolve(undefined),
    set: () => Promise.resolve(),
    health: () => "disabled",
    close: () => Promise.resolve(),
  };
}
