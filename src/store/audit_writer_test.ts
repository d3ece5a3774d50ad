import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { auditRow } from "../../tests/helpers/audit_rows.ts";
import { createThreadedAuditWriter, type TimedAuditRow } from "./audit_writer.ts";
import { createGroupCommit } from "./group_commit.ts";
import { openSqliteStore } from "./sqlite.ts";

/** A migrated, empty store file in a fresh directory. */
async function migratedFile(): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-writer-" });
  const path = join(dir, "policyd.db");
  await openSqliteStore(path, { auditWriter: "inline" }).close();
  return { path, dir };
}

const at = (i: number): string => new Date(Date.UTC(2026, 10, 24, 12, 0, i)).toISOString();

Deno.test("writer thread: a batch is committed when its promise resolves (another connection reads it)", async () => {
  const { path, dir } = await migratedFile();
  const writer = createThreadedAuditWriter(path);
  try {
    const rows: TimedAuditRow[] = [0, 1, 2].map((i) => [at(i), auditRow({ package: `pkg-${i}` })]);
    const ids = await writer.write(rows);
    assert.deepEqual(ids, [1, 2, 3]);
    const reader = new DatabaseSync(path, { readOnly: true });
    const stored = reader.prepare("SELECT id, ts, package FROM audit_log ORDER BY id").all();
    reader.close();
    assert.deepEqual(
      stored.map((r) => [r.id, r.ts, r.package]),
      [[1, at(0), "pkg-0"], [2, at(1), "pkg-1"], [3, at(2), "pkg-2"]],
    );
  } finally {
    await writer.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writer thread: a failing batch rejects alone and rolls back; the next one commits", async () => {
  const { path, dir } = await migratedFile();
  const writer = createThreadedAuditWriter(path);
  try {
    const broken = auditRow({ package: null as unknown as string }); // NOT NULL violated
    await assert.rejects(
      writer.write([[at(0), auditRow({ package: "kept-out" })], [at(1), broken]]),
      /NOT NULL/,
    );
    assert.deepEqual(await writer.write([[at(2), auditRow({ package: "after" })]]), [1]);
    const reader = new DatabaseSync(path, { readOnly: true });
    const packages = reader.prepare("SELECT package FROM audit_log").all().map((r) => r.package);
    reader.close();
    assert.deepEqual(packages, ["after"]);
  } finally {
    await writer.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writer thread: a database it cannot open fails each write with one line; it retries on the next", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-writer-" });
  const path = join(dir, "missing-directory", "policyd.db");
  const writer = createThreadedAuditWriter(path);
  try {
    const error = await writer.write([[at(0), auditRow()]]).catch((e: Error) => e);
    assert.ok(error instanceof Error);
    assert.match(error.message, /audit writer could not open .*missing-directory/);
    assert.ok(!error.message.includes("\n"), "one line");
    // Once the directory exists and the schema is there, the next write starts a new thread.
    await Deno.mkdir(join(dir, "missing-directory"));
    await openSqliteStore(path, { auditWriter: "inline" }).close();
    assert.deepEqual(await writer.write([[at(1), auditRow()]]), [1]);
  } finally {
    await writer.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pipelined group commit: later batches are handed over before earlier ones commit, results stay in order", async () => {
  const started: number[][] = [];
  const releases: Array<() => void> = [];
  const queue = createGroupCommit(
    (batch: number[]) => {
      started.push(batch);
      return new Promise<number[]>((resolve) =>
        releases.push(() => resolve(batch.map((n) => n * 10)))
      );
    },
    { pipelined: true },
  );
  const first = queue.submit(1);
  await new Promise((resolve) => setTimeout(resolve, 5)); // the first batch is cut
  const second = queue.submit(2);
  await new Promise((resolve) => setTimeout(resolve, 5));
  // Both batches reached `commit` although the first has not committed yet.
  assert.deepEqual(started, [[1], [2]]);
  releases[0]();
  releases[1]();
  assert.deepEqual(await Promise.all([first, second]), [10, 20]);
  await queue.drain();
});

Deno.test("store on the writer thread: concurrent inserts get increasing ids in submission order", async () => {
  const { path, dir } = await migratedFile();
  const store = openSqliteStore(path, { auditWriter: "thread" });
  try {
    const stored = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.audit.insert(auditRow({ package: `p${i}` }))),
    );
    assert.deepEqual(stored.map((r) => r.id), Array.from({ length: 50 }, (_, i) => i + 1));
    const listed = await store.audit.list({}, 100);
    assert.equal(listed.length, 50);
    assert.deepEqual(
      new Set(listed.map((r) => r.package)),
      new Set(stored.map((r) => r.package)),
    );
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
