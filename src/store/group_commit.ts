/**
 * Group commit of audit rows, shared by every store backend: rows submitted
 * in the same turn of the event loop (all requests whose handlers ran since
 * the last I/O poll) are written by one `commit` call (one transaction in
 * SQLite, one multi-row INSERT in PostgreSQL), cut in the check phase of that
 * turn, so well under a millisecond after the first of them; `maxBatch`
 * pending rows commit at once. Each submitted row's promise resolves only
 * after that commit, so "committed before the response" holds while
 * concurrent requests pay one commit between them instead of one each. Rows
 * submitted while a commit is running form the next batch, cut when that
 * commit ends (every row that arrived meanwhile, in one batch). (Waiting longer
 * for bigger batches was measured and is slower: under a closed-loop load
 * every waiting client is idle; docs/performance.md.)
 *
 * @module
 */
import { setImmediate } from "node:timers";

/** Writes one batch; returns one result per item, in order, or throws for the whole batch. */
export type CommitBatch<T, R> = (batch: T[]) => Promise<R[]> | R[];

/** A running group-commit queue. */
export interface GroupCommit<T, R> {
  /** Queues one item; resolves with its result once its batch has committed. */
  submit(item: T): Promise<R>;
  /** Commits whatever is queued and waits for every batch in flight. */
  drain(): Promise<void>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * When the next batch is cut: at the end of the current turn of the event
 * loop. This is the one place the batching window is decided.
 */
function scheduleFlush(flush: () => void): void {
  setImmediate(flush);
}

/** Options of {@link createGroupCommit}. */
export interface GroupCommitOptions {
  /** Most items one batch takes (default 256); that many pending items commit at once. */
  maxBatch?: number;
  /**
   * Batches committing at once (default 1). A store whose commits wait on the
   * network (PostgreSQL, a pool of connections) overlaps a few of them.
   */
  maxInFlight?: number;
}

/**
 * Creates a group-commit queue around `commit`.
 *
 * @example
 * ```ts
 * import { createGroupCommit } from "./group_commit.ts";
 * const queue = createGroupCommit((batch: number[]) => batch.map((n) => n * 2));
 * const [a, b] = await Promise.all([queue.submit(1), queue.submit(2)]); // one batch: 2, 4
 * ```
 */
export function createGroupCommit<T, R>(
  commit: CommitBatch<T, R>,
  options: GroupCommitOptions = {},
): GroupCommit<T, R> {
  const maxBatch = options.maxBatch ?? 256;
  const maxInFlight = Math.max(1, options.maxInFlight ?? 1);
  let pending: Array<Waiting<T, R>> = [];
  let scheduled = false;
  const running = new Set<Promise<void>>();

  // At most `maxInFlight` batches commit at once. Rows that arrive while they
  // do wait for one to end and then go together: cutting a batch per
  // event-loop turn instead would chain one-row commits behind a slow one
  // (PostgreSQL: round trips per commit; issue 34, docs/performance.md).
  const flush = (): Promise<void> => {
    scheduled = false;
    if (running.size >= maxInFlight) return Promise.race(running);
    if (pending.length === 0) return Promise.resolve();
    const batch = pending.length > maxBatch ? pending.splice(0, maxBatch) : pending;
    if (batch === pending) pending = [];
    const run: Promise<void> = (async () => {
      let results: R[];
      try {
        results = await commit(batch.map((waiting) => waiting.item));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      batch.forEach((waiting, i) => waiting.resolve(results[i]));
    })().finally(() => {
      running.delete(run);
      if (pending.length > 0) flush();
    });
    running.add(run);
    return run;
  };

  const drain = async (): Promise<void> => {
    while (running.size > 0 || pending.length > 0) {
      await (pending.length > 0 && running.size < maxInFlight ? flush() : Promise.race(running));
    }
  };

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (pending.length >= maxBatch) {
          flush();
        } else if (!scheduled) {
          scheduled = true;
          scheduleFlush(flush);
        }
      }),
    drain,
  };
}
