/**
 * Webhook delivery de-duplication: a delivery id (`X-GitHub-Delivery`) seen
 * within the last day is a replay, answered without pulling anything. Kept in
 * memory (a restart forgets; a replayed merge then pulls and reloads the same
 * registry again, which is harmless) and bounded in size.
 *
 * @module
 */

/** One day, GitHub's own redelivery window is shorter. */
export const DELIVERY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_REMEMBERED = 50_000;

/** Remembers delivery ids for {@link DELIVERY_TTL_MS}. */
export class DeliveryLog {
  readonly #seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now, readonly ttlMs = DELIVERY_TTL_MS) {}

  /** Whether `id` was remembered within the time-to-live. */
  has(id: string): boolean {
    const at = this.#seen.get(id);
    return at !== undefined && this.now() - at < this.ttlMs;
  }

  /** Remembers `id` now; forgets expired ids and, past the bound, the oldest. */
  remember(id: string): void {
    const now = this.now();
    this.#seen.delete(id);
    this.#seen.set(id, now);
    for (const [key, at] of this.#seen) {
      if (now - at < this.ttlMs && this.#seen.size <= MAX_REMEMBERED) break;
      this.#seen.delete(key);
    }
  }
}
