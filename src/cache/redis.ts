/**
 * The shared Redis cache (`REDIS_URL=redis://…`) on node-redis. It never
 * throws and never holds a request up for long: every command is bounded by a
 * short time-out, commands are not queued while disconnected (they miss at
 * once), and the client reconnects by itself. While Redis is unreachable,
 * lookups run uncached and {@link Cache.health} reports `degraded`.
 *
 * @module
 */
import { createClient } from "redis";
import type { Logger } from "../log/logger.ts";
import type { Cache, CacheHealth } from "./types.ts";
import { createNoCache } from "./none.ts";

/** Options of {@link createRedisCache}. */
export interface RedisCacheOptions {
  /** Upper bound of one GET or SET; past it the call counts as a miss. Default 250 ms. */
  opTimeoutMs?: number;
  /** Time-out of one connection attempt. Default 1,000 ms. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts. Default 2,000 ms. */
  maxReconnectDelayMs?: number;
}

/**
 * Creates a Redis-backed cache and starts connecting in the background.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const cache = createRedisCache("redis://127.0.0.1:6379", log);
 * await cache.set("k", { a: 1 }, 60);
 * await cache.get("k"); // { a: 1 }, or undefined while Redis is down
 * await cache.close();
 * ```
 */
export function createRedisCache(url: string, log: Logger, options: RedisCacheOptions = {}): Cache {
  const opTimeoutMs = options.opTimeoutMs ?? 250;
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 1000,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), maxDelay),
      },
    });
  } catch (error) {
    // A URL node-redis cannot use: run uncached rather than refuse to start.
    log.error("redis cache disabled: cannot use REDIS_URL", {
      detail: error instanceof Error ? error.message : String(error),
    });
    return { ...createNoCache(), health: () => "degraded" };
  }
  let down = false; // logged as unreachable, not yet recovered
  let lastOpFailed = false;
  let closed = false;

  client.on("error", (error: Error) => {
    if (!down && !closed) log.warn("redis cache unreachable", { detail: error.message });
    down = true;
  });
  client.on("ready", () => {
    if (down) log.info("redis cache reconnected");
    down = false;
    lastOpFailed = false;
  });
  // The first attempt may fail: node-redis keeps retrying with the strategy above.
  client.connect().catch(() => {});

  async function bounded<T>(op: () => Promise<T>): Promise<T | undefined> {
    if (closed || !client.isReady) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pending = op();
    pending.catch(() => {}); // a late failure after the time-out must not go unhandled
    try {
      const result = await Promise.race([
        pending,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), opTimeoutMs);
        }),
      ]);
      lastOpFailed = result === undefined;
      return result;
    } catch {
      lastOpFailed = true;
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async get<T>(key: string): Promise<T | undefined> {
      const raw = await bounded(async () => (await client.get(key)) ?? null);
      if (raw === undefined || raw === null) return undefined;
      try {
        return JSON.parse(raw) as T;
      } catch {
        return undefined;
      }
    },
    async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
      if (ttlSeconds <= 0 || value === undefined) return;
      await bounded(() =>
        client.set(key, JSON.stringify(value), {
          expiration: { type: "EX", value: Math.ceil(ttlSeconds) },
        })
      );
    },
    health(): CacheHealth {
      return client.isReady && !lastOpFailed ? "ok" : "degraded";
    },
    close(): Promise<void> {
      closed = true;
      client.destroy();
      return Promise.resolve();
    },
  };
}
