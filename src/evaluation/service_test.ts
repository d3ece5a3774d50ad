import assert from "node:assert/strict";
import { createMemoryCache } from "../cache/memory.ts";
import { createPopularIndex } from "../core/popular_index.ts";
import { decisionStableUntil } from "../core/facts_verdict.ts";
import type { Decision, LicenseFacts, VulnerabilityFacts } from "../core/types.ts";
import { withLicenseCache, withVulnerabilityCache } from "../lookups/cached.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { snapshotOf } from "../../tests/helpers/registry.ts";
import { createEvaluationService } from "./service.ts";
import { API_CONTEXT } from "../../tests/helpers/call_context.ts";
import { cveOn10, mitRelease, osvAnswer } from "../../tests/helpers/lookup_facts.ts";
import { evaluationJson, evaluationOf } from "./evaluation_json.ts";

const DAY = 86_400_000;
const CONTEXT = API_CONTEXT;

/** When a decision over MIT facts with these upload times stops holding, as an ISO time. */
function stableUntil(now: Date, released_at: string | null, first_released_at?: string): string {
  return new Date(decisionStableUntil({
    vulnerabilities: null,
    license: {
      status: "ok",
      license: "MIT",
      license_raw: "MIT",
      latest_version: "1.0",
      released_at,
      first_released_at,
    },
  }, now)).toISOString();
}

Deno.test("decisionStableUntil: the next UTC midnight, or the next whole day since the upload if sooner", () => {
  const now = new Date("2026-11-24T20:00:00Z");
  const at = (released_at: string | null) => stableUntil(now, released_at);
  assert.equal(at(null), "2026-11-25T00:00:00.000Z");
  assert.equal(at("2026-11-20T21:30:00Z"), "2026-11-24T21:30:00.000Z"); // 3 whole days become 4
  assert.equal(at("2026-11-20T02:00:00Z"), "2026-11-25T00:00:00.000Z"); // midnight comes first
  assert.equal(at("2026-11-24T20:30:00Z"), "2026-11-25T00:00:00.000Z"); // uploaded "in the future"
  assert.equal(
    new Date(decisionStableUntil({ vulnerabilities: null, license: null }, now)).toISOString(),
    "2026-11-25T00:00:00.000Z",
  );
});

Deno.test("decisionStableUntil: the project's first upload steps the clock too (new projects)", () => {
  const now = new Date("2026-11-24T20:00:00Z");
  assert.equal(
    stableUntil(now, "2026-11-20T02:00:00Z", "2026-11-23T21:00:00Z"),
    "2026-11-24T21:00:00.000Z",
  );
});

/**
 * A service over the in-process cache (whose hits are the same read-only
 * objects each time, so decisions are remembered) on a clock the test moves.
 */
async function serviceAt(clock: { now: number }, releasedAt: string, withCve = true) {
  const snapshot = await snapshotOf(`
version: "memo-1"
policies:
  cve_threshold: 7.0
  block_on_cve: true
  min_release_age_days: 7
  licenses:
    allowed: [MIT]
    denied: []
  unknown_license_policy: provisional
packages:
  - name: demo
    status: approved
exceptions:
  - package: demo
    versions: "==1.0"
    vulnerabilities: [CVE-2026-0001]
    reason: "not reachable from our code"
    expires: "2026-11-24"
    approved_by: security@example.com
`);
  let upstreamCalls = 0;
  const vulnerabilities = osvAnswer(
    withCve ? [cveOn10("CVE-2026-0001", 9.1, "critical", ["CVE-2026-0001"])] : [],
  );
  const license = mitRelease(releasedAt);
  const cache = createMemoryCache({ now: () => clock.now });
  const store = openSqliteStore(":memory:");
  const service = createEvaluationService({
    registry: { current: () => snapshot },
    vulnerabilities: withVulnerabilityCache(
      { query: () => Promise.resolve((upstreamCalls++, vulnerabilities)) },
      cache,
      30 * DAY / 1000,
    ),
    licenses: withLicenseCache(
      { lookup: () => Promise.resolve((upstreamCalls++, license)) },
      cache,
      30 * DAY / 1000,
    ),
    audit: store.audit,
    now: () => new Date(clock.now),
  });
  return {
    evaluate: () => service.evaluate({ name: "demo", version: "1.0" }, CONTEXT),
    upstreamCalls: () => upstreamCalls,
    close: () => store.close(),
  };
}

Deno.test("remembered decisions: reused while the facts and the day hold, never past an exception's expiry", async () => {
  const clock = { now: Date.parse("2026-11-24T23:59:59Z") };
  const demo = await serviceAt(clock, "2026-10-01T00:00:00Z");
  try {
    const first = await demo.evaluate(); // fetched: fresh facts, not remembered
    assert.equal(first.verdict, "ALLOWED", first.reason);
    assert.deepEqual(first.exceptions_applied.map((e) => e.expires), ["2026-11-24"]);
    const second = await demo.evaluate(); // cached facts: decided and remembered
    const third = await demo.evaluate(); // the remembered decision
    assert.equal(demo.upstreamCalls(), 2, "one fetch per source, then cache hits");
    assert.equal(third.data.vulnerabilities.status, "cached");
    assert.deepEqual({ ...third, audit_id: 0 }, { ...second, audit_id: 0 });
    assert.ok(Object.isFrozen(third.cves), "the remembered decision is read-only");
    assert.notEqual(third.audit_id, second.audit_id, "every evaluation is still audited");

    clock.now = Date.parse("2026-11-25T00:00:00Z"); // the exception's last day is over
    const after = await demo.evaluate();
    assert.equal(after.verdict, "DENIED", after.reason);
    assert.equal(after.denial_category, "DENIAL_CVE");
    assert.deepEqual(after.exceptions_applied, []);
  } finally {
    await demo.close();
  }
});

Deno.test("remembered decisions: a release leaves its cooldown at upload time + N days, to the millisecond", async () => {
  // Uploaded 2026-11-18T20:00Z with a 7-day cooldown: young until 2026-11-25T20:00Z,
  // inside one UTC day, so only the release step can end the remembered decision.
  const clock = { now: Date.parse("2026-11-25T19:59:59.999Z") };
  const demo = await serviceAt(clock, "2026-11-18T20:00:00Z", false);
  try {
    for (let i = 0; i < 3; i++) { // fetched, then decided from cached facts, then remembered
      const young = await demo.evaluate();
      assert.equal(young.verdict, "PROVISIONALLY_ALLOWED", young.reason);
      assert.match(young.reason, /6 days ago/);
    }
    clock.now = Date.parse("2026-11-25T20:00:00.000Z");
    const settled = await demo.evaluate();
    assert.equal(settled.verdict, "ALLOWED", settled.reason);
  } finally {
    await demo.close();
  }
});

Deno.test("evaluationJson: byte for byte JSON.stringify, for fresh, decided and remembered evaluations", async () => {
  const clock = { now: Date.parse("2026-11-24T12:00:00Z") };
  const demo = await serviceAt(clock, "2026-10-01T00:00:00Z");
  try {
    const texts: string[] = [];
    for (let i = 0; i < 4; i++) { // fetched, decided from cached facts, then remembered twice
      const evaluation = await demo.evaluate();
      assert.equal(evaluationJson(evaluation), JSON.stringify(evaluation));
      texts.push(evaluationJson(evaluation));
    }
    const remembered = await demo.evaluate();
    assert.ok(
      Object.isFrozen(remembered),
      "an evaluation sharing a remembered decision is read-only",
    );
    assert.throws(() => {
      (remembered as { verdict: string }).verdict = "DENIED";
    }, TypeError);
    assert.equal(evaluationJson(remembered), JSON.stringify(remembered));
    // Only the audit id differs between the remembered answers.
    const withoutId = (text: string) => text.replace(/"audit_id":\d+/, "");
    assert.equal(withoutId(texts[3]), withoutId(texts[2]));
  } finally {
    await demo.close();
  }
});

Deno.test("evaluationJson: a decision that is not remembered (or has no fields) is serialised as is", () => {
  const decision = {
    package: "demo",
    version: null,
    verdict: "ALLOWED",
    reason: 'quoted "reason" with … and \u2028',
  } as unknown as Decision;
  const fresh = evaluationOf(decision, "v1", 1);
  assert.ok(!Object.isFrozen(fresh));
  assert.equal(evaluationJson(fresh), JSON.stringify(fresh));
  const frozen = evaluationOf(Object.freeze({ ...decision }), 'v"2', 2);
  assert.equal(evaluationJson(frozen), JSON.stringify(frozen));
  const empty = evaluationOf(Object.freeze({}) as Decision, "v3", 3);
  assert.equal(evaluationJson(empty), JSON.stringify(empty));
});

Deno.test("the typosquat rule sees the registry's names plus the popular list, and a refreshed list", async () => {
  const snapshot = await snapshotOf(`
policies: {min_project_age_days: 0}
packages:
  - {name: acme-billing, status: approved}
`);
  const license: LicenseFacts = Object.freeze({
    status: "ok",
    fetched_at: "2026-11-20T00:00:00Z",
    license: "MIT",
    license_raw: "MIT",
    latest_version: "1.0",
    released_at: "2026-11-01T00:00:00Z",
    first_released_at: "2026-11-01T00:00:00Z",
    release_count: 1,
  });
  const none: VulnerabilityFacts = Object.freeze({ status: "ok", vulnerabilities: [] });
  let popular = createPopularIndex(["requests"]);
  const store = openSqliteStore(":memory:");
  const service = createEvaluationService({
    registry: { current: () => snapshot },
    vulnerabilities: { query: () => Promise.resolve(none) },
    licenses: { lookup: () => Promise.resolve(license) },
    audit: store.audit,
    popular: { current: () => popular },
    now: () => new Date("2026-11-24T12:00:00Z"),
  });
  try {
    const ask = (name: string) => service.evaluate({ name, version: null }, CONTEXT);
    assert.equal((await ask("acme-biling")).denial_category, "DENIAL_TYPOSQUAT");
    assert.equal((await ask("reqeusts")).denial_category, "DENIAL_TYPOSQUAT");
    assert.equal((await ask("reqeusts")).denial_category, "DENIAL_TYPOSQUAT", "remembered");
    popular = createPopularIndex(["numpy"]);
    const after = await ask("reqeusts");
    assert.equal(after.verdict, "PROVISIONALLY_ALLOWED", "a refreshed list is a new index");
    assert.deepEqual(after.threats, []);
  } finally {
    await store.close();
  }
});
