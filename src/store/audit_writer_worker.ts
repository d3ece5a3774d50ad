/**
 * The audit writer thread (see `audit_writer.ts`): owns one write
 * connection to the SQLite file and commits each batch it is sent in one
 * transaction, answering with the new row ids only after `COMMIT`.
 *
 * Messages in: `{ kind: "open", path }` once, then `{ kind: "write", seq,
 * rows: [ts, row][] }` and finally `{ kind: "close", seq }`. Messages out:
 * `{ seq, ids }` or `{ seq, error }` (and `{ seq: 0, error }` when opening
 * fails).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { DatabaseSync } from "node:sqlite";
import { createTransaction } from "./sqlite_transaction.ts";
import { WAL_AUTOCHECKPOINT_PAGES } from "./sqlite.ts";
import { sqliteBatchInsert, type WriterReply, type WriterRequest } from "./audit_writer.ts";

let db: DatabaseSync | null = null;
let insertBatch: ReturnType<typeof sqliteBatchInsert> | null = null;

function reply(message: WriterReply): void {
  self.postMessage(message);
}

self.onmessage = (event: MessageEvent<WriterRequest>) => {
  const message = event.data;
  if (message.kind === "open") {
    try {
      db = new DatabaseSync(message.path);
      db.exec("PRAGMA busy_timeout = 5000");
      // synchronous is per connection: the same durability as the store's own connection.
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      insertBatch = sqliteBatchInsert(db, createTransaction(db));
    } catch (error) {
      reply({ seq: 0, error: String(error) });
    }
    return;
  }
  if (message.kind === "close") {
    try {
      db?.close();
    } catch { /* already closed */ }
    db = null;
    reply({ seq: message.seq, ids: [] });
    return;
  }
  if (!db || !insertBatch) {
    reply({ seq: message.seq, error: "the audit writer has no open database" });
    return;
  }
  try {
    reply({ seq: message.seq, ids: insertBatch(message.rows) });
  } catch (error) {
    reply({ seq: message.seq, error: String(error) });
  }
};
