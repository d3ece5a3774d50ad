/**
 * Where SQLite audit rows are written (`AUDIT_WRITER`). By default inline,
 * on the event loop through the store's own connection. With `thread`, on a
 * dedicated thread (`audit_writer_worker.ts`) with its own connection, so
 * the inserts and the `COMMIT` of each group commit run beside the event
 * loop: less work on the loop per request, but more CPU in all (each batch
 * is serialised to the thread and the thread is woken), which pays only
 * where cores are idle (measured in docs/performance.md). Either way each
 * batch is one transaction and its promise resolves only after that
 * transaction has committed, so "committed before the response" holds. An
 * in-memory database (`:memory:`) cannot be shared with another thread and
 * is always written inline.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { AUDIT_INSERT_COLUMNS, auditInsertValues } from "./sql_filter.ts";
import type { Transaction } from "./sqlite_transaction.ts";
import type { NewAuditRow } from "./types.ts";

/** One row to write with its timestamp (taken on the caller's clock). */
export type TimedAuditRow = [ts: string, row: NewAuditRow];

/** Writes batches of audit rows, each batch in one transaction. */
export interface AuditWriter {
  /** Commits `rows` in one transaction; resolves with their ids, in order, after `COMMIT`. */
  write(rows: TimedAuditRow[]): Promise<number[]>;
  /** Waits for every batch sent, then releases the writer's connection. */
  close(): Promise<void>;
  /** Whether batches may be handed over before earlier ones commit (they are written in order). */
  readonly pipelined: boolean;
}

/** A message to the writer thread. */
export type WriterRequest =
  | { kind: "open"; path: string }
  | { kind: "write"; seq: number; rows: TimedAuditRow[] }
  | { kind: "close"; seq: number };

/** A message from the writer thread. */
export type WriterReply = { seq: number; ids: number[] } | { seq: number; error: string };

const AUDIT_INSERT = `INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS.join(", ")})
  VALUES (${AUDIT_INSERT_COLUMNS.map(() => "?").join(", ")})`;

/**
 * The batch insert both writers run on their connection: one transaction,
 * the new ids in order; a failing row rolls the whole batch back.
 */
export function sqliteBatchInsert(
  db: DatabaseSync,
  inTransaction: Transaction,
): (rows: TimedAuditRow[]) => number[] {
  const insert = db.prepare(AUDIT_INSERT);
  return (rows) =>
    inTransaction(() =>
      rows.map(([ts, row]) => Number(insert.run(...auditInsertValues(row, ts)).lastInsertRowid))
    );
}

/** Writes on the caller's thread, through the store's own connection. */
export function createInlineAuditWriter(db: DatabaseSync, inTransaction: Transaction): AuditWriter {
  const insertBatch = sqliteBatchInsert(db, inTransaction);
  return {
    write: (rows) => Promise.resolve().then(() => insertBatch(rows)),
    close: () => Promise.resolve(),
    pipelined: false,
  };
}

const WORKER_URL = new URL("./audit_writer_worker.ts", import.meta.url);

interface Pending {
  resolve: (ids: number[]) => void;
  reject: (error: Error) => void;
}

/**
 * Writes on a dedicated thread with its own connection to the (already
 * migrated) database at `path`. The thread starts on the first write; if it
 * dies, the batches it held fail and the next write starts a new one.
 */
export function createThreadedAuditWriter(path: string): AuditWriter {
  let worker: Worker | null = null;
  let seq = 0;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const started = new Worker(WORKER_URL, { type: "module" });
    started.onmessage = (event: MessageEvent<WriterReply>) => {
      const reply = event.data;
      if (reply.seq === 0 && "error" in reply) {
        // The next write starts a new thread and tries again.
        started.terminate();
        if (worker === started) worker = null;
        failAll(new Error(`audit writer could not open ${path}: ${reply.error}`));
        return;
      }
      const waiting = pending.get(reply.seq);
      if (!waiting) return;
      pending.delete(reply.seq);
      if ("error" in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.ids);
    };
    started.onerror = (event) => {
      event.preventDefault();
      started.terminate();
      if (worker === started) worker = null;
      failAll(new Error(`audit writer thread failed: ${event.message}`));
    };
    started.postMessage({ kind: "open", path } satisfies WriterRequest);
    return started;
  };

  const send = (message: WriterRequest & { seq: number }): Promise<number[]> =>
    new Promise<number[]>((resolve, reject) => {
      pending.set(message.seq, { resolve, reject });
      (worker ??= start()).postMessage(message);
    });

  return {
    pipelined: true,
    write: (rows) => send({ kind: "write", seq: ++seq, rows }),
    async close() {
      if (!worker) return;
      // Messages are handled in order: the close reply comes after every write's.
      await send({ kind: "close", seq: ++seq }).catch(() => {});
      worker?.terminate();
      worker = null;
    },
  };
}
