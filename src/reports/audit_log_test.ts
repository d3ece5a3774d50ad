import assert from "node:assert/strict";
import { openSqliteStore } from "../store/sqlite.ts";
import { auditRow } from "../../tests/helpers/audit_rows.ts";
import {
  auditCsv,
  auditFilterOf,
  auditPage,
  decodeCursor,
  encodeCursor,
  parseAuditQuery,
} from "./audit_log.ts";
import { activityReport, chartedDays, dayRange } from "./activity.ts";
import { packageReport } from "./package.ts";
import { compileRegistry, createSnapshot } from "../registry/compile.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");

function query(raw: Record<string, string>) {
  const parsed = parseAuditQuery(raw, null);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
}

/** A store with rows written at chosen instants (the clock steps through `times`). */
async function seeded(rows: Array<[string, Parameters<typeof auditRow>[0]]>) {
  let at = 0;
  const times = rows.map(([ts]) => ts);
  const store = openSqliteStore(":memory:", { now: () => new Date(times[at++]) });
  for (const [, row] of rows) await store.audit.insert(auditRow(row));
  return store;
}

Deno.test("parseAuditQuery() validates every filter and treats empty ones as absent", () => {
  const q = query({ verdict: "DENIED", project: "", source: "hook", days: "7", limit: "2" });
  assert.equal(q.verdict, "DENIED");
  assert.equal(q.project, undefined);
  assert.equal(q.limit, 2);
  const bad = parseAuditQuery({ verdict: "MAYBE", limit: "0", cursor: "zz", since: "yesterday" });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors.map((e) => e.path).sort(), ["cursor", "limit", "since", "verdict"]);
  const header = parseAuditQuery({}, "web");
  assert.ok(header.ok && header.query.project === "web");
  const star = parseAuditQuery({ project: "*" }, "web");
  assert.ok(star.ok && star.query.project === undefined);
});

Deno.test("a cursor round-trips and garbage is not a cursor", () => {
  const cursor = { ts: "2026-11-21T09:00:00.000Z", id: 42 };
  assert.deepEqual(decodeCursor(encodeCursor(cursor)), cursor);
  assert.equal(decodeCursor("not-a-cursor"), null);
  assert.equal(decodeCursor(btoa("x|1")), null);
});

Deno.test("auditFilterOf(): days count back from now; a bare `until` date includes its day", () => {
  assert.deepEqual(auditFilterOf(query({ days: "1", category: "DENIAL_CVE" }), NOW), {
    since: "2026-11-20T12:00:00.000Z",
    categories: ["DENIAL_CVE"],
  });
  assert.deepEqual(auditFilterOf(query({ since: "2026-11-01", until: "2026-11-02" }), NOW), {
    since: "2026-11-01T00:00:00.000Z",
    until: "2026-11-03T00:00:00.000Z",
  });
});

Deno.test("auditPage() pages newest first with a cursor, rows of one instant included", async () => {
  const same = "2026-11-21T09:00:00.000Z";
  const store = await seeded([
    ["2026-11-19T09:00:00.000Z", { package: "a" }],
    [same, { package: "b", verdict: "DENIED", denial_category: "DENIAL_BANNED" }],
    [same, { package: "c", agent_model: "claude-code", source: "hook" }],
    [same, { package: "d", project: "beta" }],
  ]);
  try {
    const first = await auditPage(store.audit, query({ limit: "2" }), NOW);
    assert.deepEqual(first.items.map((r) => r.package), ["d", "c"]);
    assert.equal(first.total, 4);
    assert.ok(first.next_cursor);
    const second = await auditPage(
      store.audit,
      query({ limit: "2", cursor: first.next_cursor }),
      NOW,
    );
    assert.deepEqual(second.items.map((r) => r.package), ["b", "a"]);
    assert.equal(second.next_cursor, null);
    const filtered = async (raw: Record<string, string>) =>
      (await auditPage(store.audit, query(raw), NOW)).items.map((r) => r.package);
    assert.deepEqual(await filtered({ project: "beta" }), ["d"]);
    assert.deepEqual(await filtered({ agent_model: "claude-code", source: "hook" }), ["c"]);
    assert.deepEqual(await filtered({ category: "DENIAL_BANNED" }), ["b"]);
    assert.deepEqual(await filtered({ days: "1" }), ["d", "c", "b"]);
    assert.deepEqual(await filtered({ until: "2026-11-20" }), ["a"]);
  } finally {
    await store.close();
  }
});

Deno.test("auditCsv() writes a header, joins CVE ids and escapes formulas", () => {
  const csv = auditCsv([{
    ...auditRow({ package: "x", cve_ids: ["CVE-1", "CVE-2"], reason: '=cmd, quoted "x"' }),
    id: 1,
    ts: "2026-11-21T09:00:00.000Z",
  }]);
  const [header, line] = csv.trim().split("\n");
  assert.ok(header.startsWith("id,ts,package,version,verdict"));
  assert.ok(line.includes(",CVE-1 CVE-2,"), line);
  assert.ok(line.includes(`"'=cmd, quoted ""x"""`), line);
});

Deno.test("auditCsv() keeps what the decision knew and neutralises every formula start", () => {
  // No cell below needs quoting, so splitting on commas reads the CSV.
  const parse = (csv: string) => {
    const [header, ...lines] = csv.trim().split("\n").map((l) => l.split(","));
    return lines.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
  };
  const at = "2026-11-21T09:00:00.000Z";
  const rows = ["=1+1", "+1", "-1", "@SUM(A1)", "plain"].map((reason, i) => ({
    ...auditRow({ package: `p${i}`, reason, agent_model: i === 0 ? "-x" : null }),
    id: i + 1,
    ts: at,
    data: i === 4 ? null : {
      vulnerabilities: {
        status: i === 1 ? "unavailable" as const : "fresh" as const,
        fetched_at: null,
      },
      license: { status: "cached" as const, fetched_at: at },
    },
  }));
  const records = parse(auditCsv(rows));
  assert.deepEqual(
    records.map((r) => [r.reason, r.vulnerability_data, r.license_data, r.threats]),
    [
      ["'=1+1", "fresh", "cached", ""],
      ["'+1", "unavailable", "cached", ""],
      ["'-1", "fresh", "cached", ""],
      ["'@SUM(A1)", "fresh", "cached", ""],
      ["plain", "not_recorded", "not_recorded", ""],
    ],
  );
  assert.equal(records[0].agent_model, "'-x");
  const withThreats = auditCsv([{
    ...rows[4],
    threats: [{ kind: "typosquat", detail: "like requests" }, { kind: "malicious", id: "MAL-1" }],
  } as never]);
  assert.match(withThreats, /,typosquat malicious:MAL-1\n$/);
});

Deno.test("activityReport() fills every day and counts every denial category", async () => {
  const store = await seeded([
    ["2026-11-20T08:00:00.000Z", { verdict: "DENIED", denial_category: "DENIAL_CVE" }],
    ["2026-11-21T08:00:00.000Z", { verdict: "DENIED", denial_category: "DENIAL_BANNED" }],
    ["2026-11-21T09:00:00.000Z", { verdict: "PROVISIONALLY_ALLOWED", package: "y" }],
    ["2026-11-21T09:30:00.000Z", { verdict: "CVE_ALERT", denial_category: "DENIAL_CVE_ALERT" }],
  ]);
  try {
    const report = await activityReport(store.audit, {
      days: 3,
      project: null,
      limit: 10,
      now: NOW,
    });
    assert.deepEqual(report.days.map((d) => d.day), dayRange(NOW, 3));
    assert.deepEqual(report.days.map((d) => d.day), ["2026-11-19", "2026-11-20", "2026-11-21"]);
    // Nothing before 2026-11-20: the charts start there.
    assert.equal(report.data_starts, "2026-11-20");
    assert.deepEqual(chartedDays(report.days, report.data_starts).map((d) => d.day), [
      "2026-11-20",
      "2026-11-21",
    ]);
    const inside = await activityReport(store.audit, {
      days: 1,
      project: null,
      limit: 10,
      now: NOW,
    });
    assert.equal(inside.data_starts, null, "rows before the window: every day is charted");
    assert.deepEqual(report.days[2].verdicts, { ALLOWED: 0, DENIED: 1, PROVISIONALLY_ALLOWED: 1 });
    assert.equal(report.totals.evaluations, 3);
    assert.equal(report.totals.denials_by_category.DENIAL_BANNED, 1);
    assert.equal(report.totals.denials_by_category.DENIAL_CVE, 1);
    assert.equal(report.top_denied.length, 7);
    assert.deepEqual(
      report.top_denied.find((t) => t.category === "DENIAL_BANNED")?.packages.map((p) => p.package),
      ["x"],
    );
    assert.ok(report.recent_decisions.every((r) => r.verdict !== "CVE_ALERT"));
  } finally {
    await store.close();
  }
});

Deno.test("packageReport() keeps the latest decision per project and the replacement", async () => {
  const store = await seeded([
    ["2026-11-20T08:00:00.000Z", { package: "pycrypto", project: "web", verdict: "DENIED" }],
    ["2026-11-21T08:00:00.000Z", { package: "pycrypto", project: "api", verdict: "DENIED" }],
    ["2026-11-21T09:00:00.000Z", { package: "pycrypto", project: "web", version: "2.6" }],
  ]);
  try {
    const compiled = await compileRegistry(
      "packages:\n  - name: pycrypto\n    status: banned\n    replacement: cryptography\n",
      NOW,
    );
    if (!compiled.ok) throw new Error("registry");
    const report = await packageReport(
      store.audit,
      createSnapshot(compiled.registry, "hash"),
      "PyCrypto",
      10,
    );
    assert.equal(report.name, "pycrypto");
    assert.equal(report.rule?.replacement, "cryptography");
    assert.deepEqual(report.projects.map((r) => [r.project, r.version]), [
      ["web", "2.6"],
      ["api", null],
    ]);
    assert.equal(report.total, 3);
    const replacement = await packageReport(
      store.audit,
      createSnapshot(compiled.registry, "hash"),
      "cryptography",
      10,
    );
    assert.deepEqual(replacement.replaces, ["pycrypto"]);
  } finally {
    await store.close();
  }
});
