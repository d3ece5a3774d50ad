/**
 * A keyed mutex: tasks with the same key run one after another, so two
 * proposals for the same registry file never lose an update.
 *
 * @module
 */

/** Serialises tasks per key. */
export interface KeyedMutex {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/**
 * Creates a keyed mutex.
 *
 * @example
 * ```ts
 * const write1 = () => Deno.writeTextFile("a.txt", "1");
 * const write2 = () => Deno.writeTextFile("a.txt", "2");
 * const mutex = createKeyedMutex();
 * await Promise.all([mutex.run("f", write1), mutex.run("f", write2)]); // write2 starts after write1
 * ```
 */
export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
