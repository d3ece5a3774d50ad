/**
 * One bounded pool for every upstream request of the process (issue 34):
 * lookups, the scanner and batch evaluations all wait here for a slot, so no
 * request, however many packages it names, can open more than the pool's
 * sockets at once and exhaust the process's file descriptors. A waiter gives
 * up when its own signal (its lookup deadline) aborts.
 *
 * @module
 */

/** A counting semaphore whose waiters can give up. */
export class ConcurrencyLimiter {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(public limit: number) {}

  /** Requests in flight now. */
  get active(): number {
    return this.#active;
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `task` once a slot is free; rejects with the signal's reason if it aborts first. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", abandon);
        this.#active++;
        resolve();
      };
      const abandon = () => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abandon, { once: true });
      this.#waiting.push(grant);
    });
  }

  #release(): void {
    this.#active--;
    while (this.#active < this.limit && this.#waiting.length > 0) this.#waiting.shift()!();
  }
}

/** Default slots of the process-wide pool (`UPSTREAM_CONCURRENCY`). */
export const DEFAULT_UPSTREAM_CONCURRENCY = 64;

/** The process-wide pool around upstream requests. */
export const upstreamPool: ConcurrencyLimiter = new ConcurrencyLimiter(
  DEFAULT_UPSTREAM_CONCURRENCY,
);

/** Sets the process-wide pool's size (the composition root, from `UPSTREAM_CONCURRENCY`). */
export function limitUpstreamConcurrency(limit: number): void {
  upstreamPool.limit = Math.max(1, Math.floor(limit));
}
