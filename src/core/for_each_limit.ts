/**
 * A bounded worker pool over a list: the one way policyd runs many upstream
 * calls at once without running all of them at once.
 *
 * @module
 */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight.
 *
 * @example
 * ```ts
 * const seen: number[] = [];
 * await forEachLimit([1, 2, 3], 2, async (n) => void seen.push(n));
 * seen.length; // 3
 * ```
 */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
