/**
 * The decision cache's contract, stated once. Repeated evaluations are cheap
 * because four modules agree on what a frozen object means:
 *
 * 1. **Shared means deeply frozen.** {@link share} freezes a value and
 *    everything in it; nothing may change a shared value afterwards, so two
 *    readers holding the same object always see the same content.
 * 2. **The in-process cache shares what it stores** (`src/cache/memory.ts`):
 *    a hit is the same shared object every time until the entry expires or
 *    is replaced. The Redis cache answers a fresh, unshared copy per hit.
 * 3. **Cached lookups keep the identity** (`src/lookups/cached.ts`): a shared
 *    hit becomes one shared `cached: true` view per stored value, the same
 *    object on every hit; fresh upstream answers and Redis hits are unshared.
 * 4. **The evaluation service remembers only over shared facts**
 *    (`src/evaluation/service.ts`): a decision is reused when both facts are
 *    the very same objects it was decided from (identity stands for
 *    equality, by 1–3) and its clock inputs hold; the remembered decision is
 *    shared. Decisions over unshared facts are never remembered.
 * 5. **Shared decisions keep their text** (`src/evaluation/evaluation_json.ts`):
 *    the serialisation of a shared decision is computed once and reused, which
 *    is only correct because (1) forbids any change to it.
 *
 * `tests` pinning it: `src/evaluation/decision_cache_test.ts`.
 *
 * @module
 */

/**
 * Freezes `value` and everything reachable from it, and returns it: from now
 * on it may be handed to any number of readers (rule 1).
 *
 * @example
 * ```ts
 * const facts = share({ status: "ok", vulnerabilities: [{ id: "CVE-1" }] });
 * isShared(facts) && Object.isFrozen(facts.vulnerabilities[0]); // true
 * ```
 */
export function share<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) share(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Whether `value` was shared (rule 1 makes the top-level flag enough: only
 * {@link share} freezes, and it freezes everything inside first).
 *
 * @example
 * ```ts
 * isShared(share({ a: [1] })); // true
 * isShared({ a: [1] }); // false
 * ```
 */
export function isShared(value: unknown): boolean {
  return value !== null && typeof value === "object" && Object.isFrozen(value);
}

/**
 * Whether `value` and everything reachable from it is frozen: what rule 1
 * promises, checked the slow way (for tests).
 *
 * @example
 * ```ts
 * isDeeplyShared(share({ a: [{ b: 1 }] })); // true
 * isDeeplyShared(Object.freeze({ a: [{ b: 1 }] })); // false
 * ```
 */
export function isDeeplyShared(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeeplyShared);
}
