import { deepStrictEqual, equal } from "node:assert/strict";
import { silentLogger as log } from "../log/logger.ts";
import { compileRegistry, createSnapshot } from "../registry/compile.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { createChangeLog } from "./change_log.ts";

async function snapshot(yaml: string) {
  const compiled = await compileRegistry(yaml);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return createSnapshot(compiled.registry, compiled.contentHash);
}

Deno.test("a merged pull request's reload is recorded with the pull request that proposed it", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const changes = createChangeLog({ store: store.changes, log });
    const before = await snapshot("packages: [{name: a, status: approved}]");
    const after = await snapshot(
      "packages: [{name: a, status: approved}, {name: left-pad, status: approved}]",
    );
    await changes.recordProposal({
      name: "Left_Pad",
      before: null,
      after: { name: "left-pad", status: "approved" },
      result: {
        backend: "github",
        status: "opened",
        url: "https://github.com/o/r/pull/7",
        detail: "opened",
      },
      who: { actor: "alice", proposer: "github", reverts: null },
      version: before.registry.version,
    });
    await changes.recordSwap(after, before);
    // A second instance following the same reload writes nothing more.
    await changes.recordSwap(after, before);
    const entries = await store.changes.list({ package: "left-pad" }, 10);
    deepStrictEqual(
      entries.map((e) => [e.kind, e.actor, e.proposer, e.url, e.before, e.after?.status]),
      [
        ["reloaded", "alice", "github", "https://github.com/o/r/pull/7", null, "approved"],
        ["opened", "alice", "github", "https://github.com/o/r/pull/7", null, "approved"],
      ],
    );
    equal(entries[0].previous_version, before.registry.version);
    equal(entries[0].registry_version, after.registry.version);
  } finally {
    await store.close();
  }
});

Deno.test("a reload during a proposal is attributed to it; a hand edit is a bare reload", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const changes = createChangeLog({ store: store.changes, log });
    const v1 = await snapshot("packages: [{name: a, status: approved}]");
    const v2 = await snapshot("packages: [{name: a, status: banned, reason: CVE}]");
    const v3 = await snapshot("packages: []");
    await changes.attributed(
      "A",
      { actor: "bob", proposer: "local_file", reverts: 4 },
      () => changes.recordSwap(v2, v1),
    );
    await changes.recordSwap(v3, v2);
    const entries = await store.changes.list({}, 10);
    deepStrictEqual(
      entries.map((e) => [e.kind, e.actor, e.reverts, e.before?.status, e.after?.status ?? null]),
      [
        ["reloaded", null, null, "banned", null],
        ["applied", "bob", 4, "approved", "banned"],
      ],
    );
    equal(entries[1].after?.reason, "CVE");
  } finally {
    await store.close();
  }
});
