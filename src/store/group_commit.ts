/**
 * Group commit of audit rows, shared by every store backend: rows submitted
 * in the same turn of the event loop (all requests whose handlers ran since
 * the last I/O poll) are written by one `commit` call (one transaction in
 * SQLite, one multi-row INSERT in PostgreSQL), cut in the check phase of that
 * turn, so well under a millisecond after the first of them; `maxBatch`
 * pending rows commit at once. Each submitted row's promise resolves only
 * after that commit, so "committed before the response" holds while
 * concurrent requests pay one commit between them instead of one each. Rows
 * submitted while a commit is running form the next batch. (Waiting longer
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
  let pending: Array<Waiting<T, R>> = [];
  let scheduled = false;
  let inFlight: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return inFlight;
    const run = inFlight.then(async () => {
      let results: R[];
      try {
        results = await commit(batch.map((waiting) => waiting.item));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      batch.forEach((waiting, i) => waiting.resolve(results[i]));
    });
    inFlight = run;
    return run;
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
    drain: () => flush(),
  };
}
