/**
 * The store contract: the behaviour every store backend must show, as a
 * suite of `Deno.test` cases a backend's test file registers with its own
 * opener (`sqlite_test.ts`, `postgres_test.ts`).
 *
 * @module
 */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { auditRow } from "../../tests/helpers/audit_rows.ts";
import { canonical, randomRow, reportCalls, seeded } from "./rollup_contract.ts";
import type { AuditFilter, AuditGroup, AuditGroupKey, NewAuditRow, Store } from "./types.ts";
import type { NewApprovalRequest } from "./approval_types.ts";

/** A freshly opened, empty store of one backend. */
export interface OpenedStore {
  store: Store;
  /** Counts audit rows through a separate connection: only committed rows count. */
  committedAuditRows(): Promise<number>;
  /** The backend's raw `GROUP BY` answer (no rollups), through a separate connection. */
  rawGroup(filter: AuditFilter, by: AuditGroupKey[]): Promise<AuditGroup[]>;
  /** How many rollup buckets are stored. */
  storedRollupBuckets(): Promise<number>;
  /** Closes the store if still open and deletes what it created. */
  dispose(): Promise<void>;
}

/** Opens an empty store; `now` is the clock for row timestamps. */
export type StoreOpener = (options: { now?: () => Date }) => Promise<OpenedStore>;

const row = (pkg: string, extra: Partial<NewAuditRow> = {}): NewAuditRow =>
  auditRow({ package: pkg, project: "p", registry_version: "v1", reason: "", ...extra });

/** An approval request for `pkg` in `project` ("needed", filed locally); `extra` overrides. */
const request = (
  pkg: string,
  project: string,
  extra: Partial<NewApprovalRequest> = {},
): NewApprovalRequest => ({
  package: pkg,
  version: null,
  project,
  requester: "local",
  rationale: "needed",
  agent_model: null,
  agent_version: null,
  ...extra,
});

/** A clock that advances one second per call from 2026-11-21T00:00:00Z. */
function ticking(): () => Date {
  let t = 0;
  return () => new Date(Date.UTC(2026, 10, 21, 0, 0, t++));
}

/**
 * Registers the contract's test cases for one backend.
 *
 * @example
 * ```ts ignore
 * // ignore: registers Deno.test cases; run it from a backend's *_test.ts file
 * import { storeContract } from "./contract_test_suite.ts";
 * storeContract("sqlite", async () => ({ store, committedAuditRows, dispose }));
 * ```
 */
export function storeContract(backend: string, open: StoreOpener): void {
  const test = (name: string, fn: (opened: OpenedStore) => Promise<void>, now?: () => Date) =>
    Deno.test(`store contract (${backend}): ${name}`, async () => {
      const opened = await open({ now });
      try {
        await fn(opened);
      } finally {
        await opened.dispose();
      }
    });

  test("concurrent inserts are group-committed; each resolves with its own id after commit", async ({ store, committedAuditRows }) => {
    const stored = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.audit.insert(row(`pkg-${i}`))),
    );
    deepStrictEqual(
      stored.map((r) => r.package),
      Array.from({ length: 50 }, (_, i) => `pkg-${i}`),
    );
    equal(new Set(stored.map((r) => r.id)).size, 50);
    equal(await committedAuditRows(), 50);
  });

  test("an inserted row reads back field for field", async ({ store }) => {
    const input = row("requests", {
      version: "2.31.0",
      license: "Apache-2.0",
      verdict: "DENIED",
      agent_model: "claude",
      agent_version: "4",
      denial_category: "DENIAL_CVE",
      cve_ids: ["CVE-2024-35195"],
      max_cvss: 5.6,
      registry_status: "approved",
      license_raw: "Apache 2.0",
      reason: "has a CVE",
      data: {
        vulnerabilities: { status: "fresh", fetched_at: "2026-11-20T23:00:00.000Z" },
        license: { status: "unavailable", fetched_at: null },
      },
      exceptions_applied: [{
        package: "requests",
        vulnerabilities: ["CVE-2023-32681"],
        reason: "not reachable",
        expires: "2027-01-01",
      }],
      threats: [{
        kind: "typosquat",
        detail: "`reqeusts` looks like a typo of `requests` (a popular project)",
        similar_to: ["requests"],
      }],
    });
    const stored = await store.audit.insert(input);
    equal(stored.ts, "2026-11-21T00:00:00.000Z");
    deepStrictEqual(await store.audit.list({}, 10), [{ ...input, id: stored.id, ts: stored.ts }]);
    const bare = await store.audit.insert(row("flask"));
    deepStrictEqual(
      [bare.data, bare.exceptions_applied, bare.threats],
      [null, [], []],
      "the optional columns default to null and []",
    );
    deepStrictEqual((await store.audit.list({ package: "flask" }, 1))[0], bare);
    deepStrictEqual(
      (await store.audit.list({ dataUnavailable: "license" }, 10)).map((r) => r.package),
      ["requests"],
    );
    deepStrictEqual(await store.audit.list({ dataUnavailable: "vulnerabilities" }, 10), []);
  }, ticking());

  test(
    "insertMany() commits in order; list() filters and returns newest first",
    async ({ store }) => {
      const stored = await store.audit.insertMany([
        row("a", { project: "x", verdict: "ALLOWED", license: "MIT", registry_status: "approved" }),
        row("b", {
          project: "y",
          verdict: "DENIED",
          denial_category: "DENIAL_CVE",
          source: "hook",
        }),
        row("c", {
          project: "x",
          verdict: "DENIED",
          denial_category: "DENIAL_LICENSE",
          agent_model: "claude",
        }),
      ]);
      deepStrictEqual(stored.map((r) => r.package), ["a", "b", "c"]);
      ok(stored[0].id < stored[1].id && stored[1].id < stored[2].id);
      const names = async (filter: Parameters<Store["audit"]["list"]>[0], limit = 10) =>
        (await store.audit.list(filter, limit)).map((r) => r.package);
      deepStrictEqual(await names({}), ["c", "b", "a"]);
      deepStrictEqual(await names({}, 2), ["c", "b"]);
      deepStrictEqual(await names({ project: "x" }), ["c", "a"]);
      deepStrictEqual(await names({ package: "b" }), ["b"]);
      deepStrictEqual(await names({ verdicts: ["DENIED"] }), ["c", "b"]);
      deepStrictEqual(await names({ verdicts: [] }), []);
      deepStrictEqual(await names({ categories: ["DENIAL_LICENSE"] }), ["c"]);
      deepStrictEqual(await names({ packages: ["a", "c"] }), ["c", "a"]);
      deepStrictEqual(await names({ license: "MIT" }), ["a"]);
      deepStrictEqual(await names({ hasLicense: true }), ["a"]);
      deepStrictEqual(await names({ agent_model: "claude" }), ["c"]);
      deepStrictEqual(await names({ source: "hook" }), ["b"]);
      deepStrictEqual(await names({ registryKnown: true }), ["a"]);
      deepStrictEqual(await names({ since: stored[1].ts }), ["c", "b"]);
      deepStrictEqual(await names({ until: stored[1].ts }), ["a"]);
      deepStrictEqual(await names({ before: { ts: stored[2].ts, id: stored[2].id } }), ["b", "a"]);
      deepStrictEqual(await names({ before: { ts: stored[1].ts, id: stored[1].id } }, 1), ["a"]);
    },
    ticking(),
  );

  test(
    "group() rolls up counts, projects and CVE ids; 'cve' explodes cve_ids",
    async ({ store }) => {
      await store.audit.insertMany([
        row("a", {
          project: "x",
          cve_ids: ["CVE-1", "CVE-2"],
          max_cvss: 9.0,
          verdict: "DENIED",
          denial_category: "DENIAL_CVE",
        }),
        row("a", {
          project: "y",
          cve_ids: ["CVE-2"],
          max_cvss: 7.0,
          verdict: "DENIED",
          denial_category: "DENIAL_CVE",
        }),
        row("b", { project: "x", cve_ids: [], max_cvss: null }),
      ]);
      const byPackage = await store.audit.group({}, ["package"]);
      deepStrictEqual(byPackage[0].keys, { package: "a" });
      equal(byPackage[0].count, 2);
      equal(byPackage[0].max_cvss, 9.0);
      equal(byPackage[0].last_ts, "2026-11-21T00:00:01.000Z");
      deepStrictEqual(byPackage[0].projects, ["x", "y"]);
      deepStrictEqual(byPackage[0].cve_ids, ["CVE-1", "CVE-2"]);
      deepStrictEqual(byPackage[1].cve_ids, []);
      const byCve = await store.audit.group({}, ["cve"]);
      deepStrictEqual(byCve.map((g) => [g.keys.cve, g.count]), [["CVE-2", 2], ["CVE-1", 1]]);
      const bySeverity = await store.audit.group({}, ["severity"]);
      deepStrictEqual(Object.fromEntries(bySeverity.map((g) => [g.keys.severity, g.count])), {
        critical: 1,
        high: 1,
        unknown: 1,
      });
      const byTwo = await store.audit.group({ project: "x" }, ["package", "verdict"]);
      deepStrictEqual(byTwo.map((g) => g.keys).sort((l, r) => l.package! < r.package! ? -1 : 1), [
        { package: "a", verdict: "DENIED" },
        { package: "b", verdict: "ALLOWED" },
      ]);
      deepStrictEqual(await store.audit.group({ project: "none" }, ["package"]), []);
      deepStrictEqual((await store.audit.group({}, [])).map((g) => g.count), [3]);
      deepStrictEqual(
        (await store.audit.group({}, ["day"])).map((g) => [g.keys.day, g.count]),
        [["2026-11-21", 3]],
      );
      deepStrictEqual(
        (await store.audit.group({}, ["category"])).map((g) => [g.keys.category, g.count]),
        [["DENIAL_CVE", 2], [null, 1]],
      );
    },
    ticking(),
  );

  test("lastAlert() is the newest CVE_ALERT row of a package", async ({ store }) => {
    equal(await store.audit.lastAlert("a"), undefined);
    const alert = (cve: string) =>
      row("a", { verdict: "CVE_ALERT", denial_category: "DENIAL_CVE_ALERT", cve_ids: [cve] });
    await store.audit.insertMany([alert("CVE-1"), alert("CVE-2"), row("a")]);
    deepStrictEqual((await store.audit.lastAlert("a"))?.cve_ids, ["CVE-2"]);
  }, ticking());

  test(
    "approval requests: create, get, list by filter, approve pending packages, record proposal",
    async ({ store }) => {
      const a = await store.approvals.create(request("left-pad", "p1"));
      await store.approvals.create(request("left-pad", "p2"));
      await store.approvals.create(request("other", "p1"));
      equal(a.status, "PENDING_REVIEW");
      equal(a.created_at, "2026-11-21T00:00:00.000Z");
      deepStrictEqual(await store.approvals.get(a.id), a);
      equal(await store.approvals.get(a.id + 1000), undefined);
      deepStrictEqual(
        (await store.approvals.list({ project: "p1" })).map((r) => r.package),
        ["other", "left-pad"],
      );
      equal(await store.approvals.approvePackages([], "2026-11-22T00:00:00.000Z"), 0);
      equal(await store.approvals.approvePackages(["left-pad"], "2026-11-22T00:00:00.000Z"), 2);
      equal(await store.approvals.approvePackages(["left-pad"], "2026-11-22T00:00:00.000Z"), 0);
      const approved = await store.approvals.list({ status: "APPROVED" });
      equal(approved.length, 2);
      equal(approved[0].decided_at, "2026-11-22T00:00:00.000Z");
      await store.approvals.recordProposal(a.id, "failed", "push rejected");
      const [again] = await store.approvals.list({ package: "left-pad", project: "p1" });
      equal(again.proposal_status, "failed");
      equal(again.proposal_detail, "push rejected");
    },
    ticking(),
  );

  test(
    "audit filter: agent model by case-insensitive prefix, LIKE wildcards taken literally",
    async ({ store }) => {
      const models = ["claude-code", "Claude-Sonnet", "cursor", "50%_model", "50xxmodel", null];
      for (const agent_model of models) {
        await store.audit.insert(auditRow({ package: "a", agent_model }));
      }
      const listed = async (prefix: string) =>
        (await store.audit.list({ agentModelPrefix: prefix }, 50)).map((r) => r.agent_model).sort();
      deepStrictEqual(await listed("claude"), ["Claude-Sonnet", "claude-code"]);
      deepStrictEqual(await listed("CLAUDE-c"), ["claude-code"]);
      deepStrictEqual(await listed("50%_"), ["50%_model"]);
      const [group] = await store.audit.group({ agentModelPrefix: "claude" }, []);
      equal(group.count, 2);
      const byModel = await store.audit.group({ agentModelPrefix: "cl" }, [
        "agent_model",
        "verdict",
      ]);
      equal(byModel.reduce((n, g) => n + g.count, 0), 2);
    },
    ticking(),
  );

  test(
    "approval requests: reject and dismiss only pending requests, with who and why",
    async ({ store }) => {
      const hook = { requester: "agent-1", agent_model: "claude-sonnet-4-5", source: "hook" };
      const a = await store.approvals.create(request("left-pad", "p1", hook));
      const b = await store.approvals.create(request("tiny", "p1", hook));
      equal(a.source, "hook");
      equal((await store.approvals.get(a.id))?.source, "hook");
      const at = "2026-11-22T00:00:00.000Z";
      const rejected = await store.approvals.decide(a.id, {
        status: "REJECTED",
        reason: "unmaintained since 2019",
        by: "alice",
        at,
      });
      deepStrictEqual(
        [rejected?.status, rejected?.decided_by, rejected?.decision_reason, rejected?.decided_at],
        ["REJECTED", "alice", "unmaintained since 2019", at],
      );
      // A decided request stays as it was.
      const again = await store.approvals.decide(a.id, {
        status: "DISMISSED",
        reason: "",
        by: "bob",
        at: "2026-11-23T00:00:00.000Z",
      });
      deepStrictEqual([again?.status, again?.decided_by], ["REJECTED", "alice"]);
      const dismissed = await store.approvals.decide(b.id, {
        status: "DISMISSED",
        reason: "duplicate",
        by: "bob",
        at,
      });
      equal(dismissed?.status, "DISMISSED");
      equal(
        await store.approvals.decide(b.id + 1000, {
          ...{ status: "REJECTED" },
          reason: "x",
          by: "c",
          at,
        }),
        undefined,
      );
      equal(await store.approvals.approvePackages(["left-pad", "tiny"], at), 0);
      deepStrictEqual(
        (await store.approvals.list({ status: "REJECTED" })).map((r) => r.package),
        ["left-pad"],
      );
    },
    ticking(),
  );

  test(
    "registry change log: record, get, list newest first by package and page",
    async ({ store }) => {
      const base = {
        kind: "applied" as const,
        actor: "alice",
        proposer: "local_file",
        previous_version: "v1",
        registry_version: "v2",
        url: null,
        reverts: null,
        request_id: null,
        detail: "",
      };
      const first = await store.changes.record({
        ...base,
        package: "left-pad",
        before: null,
        after: { name: "left-pad", status: "approved", reason: "needed" },
      });
      equal(first.ts, "2026-11-21T00:00:00.000Z");
      const second = await store.changes.record({
        ...base,
        package: "tiny",
        kind: "opened",
        before: { name: "tiny", status: "deprecated" },
        after: { name: "tiny", status: "approved" },
        url: "https://github.com/o/r/pull/7",
      });
      const third = await store.changes.record({
        ...base,
        package: "left-pad",
        before: { name: "left-pad", status: "approved", reason: "needed" },
        after: null,
        reverts: first.id,
      });
      deepStrictEqual(await store.changes.get(first.id), first);
      deepStrictEqual(await store.changes.get(second.id), second);
      equal(await store.changes.get(third.id + 100), undefined);
      deepStrictEqual((await store.changes.list({}, 10)).map((c) => c.id), [
        third.id,
        second.id,
        first.id,
      ]);
      deepStrictEqual((await store.changes.list({ package: "left-pad" }, 10)).map((c) => c.id), [
        third.id,
        first.id,
      ]);
      deepStrictEqual((await store.changes.list({ beforeId: third.id }, 1)).map((c) => c.id), [
        second.id,
      ]);
      equal((await store.changes.get(third.id))?.reverts, first.id);
      equal((await store.changes.get(third.id))?.after, null);
    },
    ticking(),
  );

  const clock = { at: Date.UTC(2026, 10, 1, 3, 17, 0) };
  test(
    "group() from the rollups equals the raw answer: random rows over 12 days, late rows, more days",
    async ({ store, rawGroup, storedRollupBuckets }) => {
      const random = seeded(17);
      const minute = 60_000, day = 86_400_000;
      clock.at = Date.UTC(2026, 10, 1, 3, 17, 0);
      const addRows = async (days: number) => {
        const end = clock.at + days * day;
        while (clock.at < end) {
          const rows = Array.from(
            { length: 1 + Math.floor(random() * 4) },
            () => randomRow(random),
          );
          if (random() < 0.5) await store.audit.insertMany(rows);
          else await Promise.all(rows.map((r) => store.audit.insert(r)));
          clock.at += Math.floor(random() * 90) * minute + 1;
        }
      };
      const windows = () => {
        const latest = clock.at;
        const iso = (ms: number) => new Date(ms).toISOString();
        return [
          { since: iso(latest - 7 * day - 37 * minute) },
          {
            since: iso(latest - 10 * day + 2 * minute),
            until: iso(latest - 2 * day - 71 * minute),
          },
          { since: iso(Math.floor(latest / day - 5) * day) },
          { since: iso(latest - 30 * day) },
          { since: iso(latest - 3 * day - 13 * minute), project: "p2" },
        ];
      };
      const compare = async (stage: string) => {
        for (const window of windows()) {
          for (const [filter, by] of reportCalls(window)) {
            deepStrictEqual(
              canonical(await store.audit.group(filter, by)),
              canonical(await rawGroup(filter, by)),
              `${stage}: group(${JSON.stringify(filter)}, ${JSON.stringify(by)})`,
            );
          }
        }
      };
      await addRows(12);
      await compare("first reads");
      const stored = await storedRollupBuckets();
      ok(stored > 0, "the reads materialised rollup buckets");
      // Late rows: stamped inside days and hours already rolled up, one by insert(), some by
      // insertMany(), then the clock returns.
      const latest = clock.at;
      for (const back of [5 * 86_400_000 + 7 * minute, 9 * 86_400_000, 40 * minute]) {
        clock.at = latest - back;
        await store.audit.insert(randomRow(random));
        await store.audit.insertMany([randomRow(random), randomRow(random)]);
      }
      clock.at = latest;
      ok(await storedRollupBuckets() < stored, "late rows dropped the buckets they fell into");
      await compare("after late rows");
      await addRows(2);
      await compare("two days later");
    },
    () => new Date(clock.at),
  );

  test(
    "group() stays exact when late rows race the reads that materialise their buckets",
    async ({ store, rawGroup }) => {
      const random = seeded(29);
      const hour = 3_600_000;
      clock.at = Date.UTC(2026, 10, 1, 0, 0, 0);
      for (let n = 0; n < 300; n++) {
        await store.audit.insertMany([randomRow(random)]);
        clock.at += Math.floor(random() * 40) * 60_000 + 1;
      }
      const latest = clock.at;
      const window = { since: new Date(latest - 70 * hour - 23 * 60_000).toISOString() };
      for (const back of [50, 30, 10]) {
        // Reads (materialising) and late inserts in flight together; the clock is late meanwhile.
        clock.at = latest - back * hour;
        await Promise.all([
          ...reportCalls(window).map(([filter, by]) => store.audit.group(filter, by)),
          store.audit.insert(randomRow(random)),
          store.audit.insertMany([randomRow(random), randomRow(random)]),
          store.audit.insert(randomRow(random)),
        ]);
      }
      clock.at = latest;
      for (const [filter, by] of reportCalls(window)) {
        deepStrictEqual(
          canonical(await store.audit.group(filter, by)),
          canonical(await rawGroup(filter, by)),
          `group(${JSON.stringify(filter)}, ${JSON.stringify(by)})`,
        );
      }
    },
    () => new Date(clock.at),
  );

  test("healthy() turns false after close; inserts after close reject", async ({ store }) => {
    equal(await store.healthy(), true);
    const queued = store.audit.insert(row("last"));
    await store.close();
    equal((await queued).package, "last", "a queued insert commits before close");
    equal(await store.healthy(), false);
    await rejects(store.audit.insert(row("late")));
  });
}
