/**
 * The decision cache's contract (src/core/decision_cache.ts), checked across
 * the four modules that rely on it: the in-process cache, the cached
 * lookups, the evaluation service and the evaluation JSON. Each assertion
 * names the rule it pins; breaking a rule in any of them fails here.
 */
import assert from "node:assert/strict";
import { createMemoryCache } from "../cache/memory.ts";
import { createRedisCache } from "../cache/redis.ts";
import type { Cache } from "../cache/types.ts";
import { isDeeplyShared, isShared, share } from "../core/decision_cache.ts";
import { silentLogger } from "../log/logger.ts";
import { withLicenseCache, withVulnerabilityCache } from "../lookups/cached.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { snapshotOf } from "../../tests/helpers/registry.ts";
import { testRedisUrl } from "../../tests/helpers/redis.ts";
import { evaluationJson } from "./evaluation_json.ts";
import { createEvaluationService } from "./service.ts";
import { API_CONTEXT } from "../../tests/helpers/call_context.ts";
import { cveOn10, mitRelease, osvAnswer } from "../../tests/helpers/lookup_facts.ts";

const CONTEXT = API_CONTEXT;

/** Upstream answers as the real sources give them: a new object per call. */
function upstream() {
  let calls = 0;
  const fresh = <T>(facts: T) => (): Promise<T> => {
    calls++;
    return Promise.resolve(structuredClone(facts));
  };
  const vulnerabilities = osvAnswer([cveOn10("CVE-2026-0002", 5.0, "medium")]);
  const license = mitRelease("2026-10-01T00:00:00Z");
  return {
    calls: () => calls,
    vulnerabilities: { query: fresh(vulnerabilities) },
    licenses: { lookup: fresh(license) },
  };
}

/** An evaluation service whose lookups go through `cache`, for package `name`. */
async function serviceOver(cache: Cache, name: string) {
  const snapshot = await snapshotOf(`
version: "contract-1"
policies:
  cve_threshold: 7.0
  block_on_cve: true
  licenses:
    allowed: [MIT]
    denied: []
  unknown_license_policy: provisional
packages:
  - name: ${name}
    status: approved
`);
  const sources = upstream();
  const store = openSqliteStore(":memory:");
  const vulnerabilities = withVulnerabilityCache(sources.vulnerabilities, cache, 3600);
  const licenses = withLicenseCache(sources.licenses, cache, 3600);
  const service = createEvaluationService({
    registry: { current: () => snapshot },
    vulnerabilities,
    licenses,
    audit: store.audit,
    now: () => new Date("2026-11-24T12:00:00Z"),
  });
  return {
    vulnerabilities,
    licenses,
    evaluate: () => service.evaluate({ name, version: "1.0" }, CONTEXT),
    evaluateMany: () => service.evaluateMany([{ name, version: "1.0" }], CONTEXT),
    upstreamCalls: sources.calls,
    close: () => store.close(),
  };
}

Deno.test("rule 1: share() freezes deeply; isShared() reads the flag share() sets", () => {
  const value = share({ a: [{ b: 1 }], c: { d: "e" } });
  assert.ok(isShared(value) && isDeeplyShared(value));
  assert.throws(() => {
    (value.a[0] as { b: number }).b = 2;
  }, TypeError);
  assert.equal(isShared({}), false);
  assert.equal(isDeeplyShared(Object.freeze({ a: [] })), false, "a shallow freeze is not sharing");
});

Deno.test("rule 2: the in-process cache answers the same shared object until the entry changes", async () => {
  const cache = createMemoryCache();
  await cache.set("k", { list: [{ id: 1 }] }, 60);
  const first = await cache.get<{ list: Array<{ id: number }> }>("k");
  const again = await cache.get("k");
  assert.equal(first, again, "same object on every hit");
  assert.ok(isDeeplyShared(first), "deeply frozen");
  await cache.set("k", { list: [{ id: 1 }] }, 60);
  assert.notEqual(await cache.get("k"), first, "a new entry is a new object");
});

Deno.test("rules 3–5 over the in-process cache: one shared view, one remembered decision, one text", async () => {
  const demo = await serviceOver(createMemoryCache(), "contract-memory");
  try {
    const fetched = await demo.vulnerabilities.query("contract-memory", "1.0");
    assert.equal(isShared(fetched), false, "a fresh upstream answer is not shared");
    const hit = await demo.vulnerabilities.query("contract-memory", "1.0");
    assert.equal(await demo.vulnerabilities.query("contract-memory", "1.0"), hit, "rule 3");
    assert.ok(isDeeplyShared(hit) && hit.status === "ok" && hit.cached === true, "rule 3");
    await demo.licenses.lookup("contract-memory", "1.0");
    const license = await demo.licenses.lookup("contract-memory", "1.0");
    assert.equal(await demo.licenses.lookup("contract-memory", "1.0"), license, "rule 3");

    const decided = await demo.evaluate(); // over shared facts: decided and remembered
    const remembered = await demo.evaluate();
    const batch = (await demo.evaluateMany())[0];
    assert.equal(demo.upstreamCalls(), 2, "one fetch per source");
    for (const evaluation of [decided, remembered, batch]) {
      assert.ok(isDeeplyShared(evaluation), "rule 4: the remembered decision is shared");
      assert.equal(evaluationJson(evaluation), JSON.stringify(evaluation), "rule 5");
    }
    assert.equal(remembered.cves, decided.cves, "rule 4: the very same decision is reused");
    assert.equal(batch.data, decided.data, "rule 4: single and batch share it");
    assert.notEqual(remembered.audit_id, decided.audit_id, "every evaluation is still audited");
  } finally {
    await demo.close();
  }
});

Deno.test("rules 2–4 over Redis: fresh copies per hit, so nothing is remembered or shared", async () => {
  const cache = createRedisCache(testRedisUrl(), silentLogger);
  const name = `contract-redis-${crypto.randomUUID().slice(0, 8)}`;
  const demo = await serviceOver(cache, name);
  try {
    for (let i = 0; i < 50 && cache.health() !== "ok"; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(cache.health(), "ok", `Redis at ${testRedisUrl()}`);
    await demo.vulnerabilities.query(name, "1.0");
    const hit = await demo.vulnerabilities.query(name, "1.0");
    assert.ok(hit.status === "ok" && hit.cached === true, "a Redis hit");
    assert.equal(isShared(hit), false, "rule 2: a Redis hit is a fresh copy");
    assert.notEqual(await demo.vulnerabilities.query(name, "1.0"), hit, "rule 3");
    await demo.licenses.lookup(name, "1.0");

    const first = await demo.evaluate();
    const second = await demo.evaluate();
    assert.equal(isShared(first) || isShared(second), false, "rule 4: not remembered");
    assert.notEqual(second.cves, first.cves, "rule 4: decided again");
    assert.deepEqual({ ...second, audit_id: 0 }, { ...first, audit_id: 0 });
    assert.equal(evaluationJson(second), JSON.stringify(second));
  } finally {
    await demo.close();
    await cache.close();
  }
});
