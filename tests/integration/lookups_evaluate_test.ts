import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { CRYPTOGRAPHY_PROJECT } from "../helpers/workflow_app.ts";

async function evaluate(url: string, query: string) {
  const res = await fetch(`${url}/api/v1/evaluate?${query}`);
  equal(res.status, 200);
  return await res.json();
}

Deno.test("a preferred package at a version with a real critical advisory is denied; version-less follows unversioned_cve_scope", async (t) => {
  const upstream = await startFakeUpstream();
  upstream.addPypiResponse("cryptography", CRYPTOGRAPHY_PROJECT);
  const env = { OSV_API_URL: upstream.url, PYPI_URL: upstream.url, REDIS_URL: "none" };
  const example = await readExampleRegistry();
  const latest = await startTestServer({ env, registryYaml: example });
  const any = await startTestServer({
    env,
    registryYaml: example.replace("unversioned_cve_scope: latest", "unversioned_cve_scope: any"),
  });
  try {
    await t.step("cryptography==46.0.6 is DENIED with DENIAL_CVE and the CVE ids", async () => {
      const body = await evaluate(latest.url, "package=cryptography&version=46.0.6");
      equal(body.verdict, "DENIED", body.reason);
      equal(body.denial_category, "DENIAL_CVE");
      equal(body.registry_status, "preferred");
      equal(body.cves[0].id, "CVE-2026-39892", JSON.stringify(body.cves));
      equal(body.cves[0].score, 9.8);
      equal(body.max_cvss, 9.8);
      ok(body.reason.includes("CVE-2026-39892"));
      const scores = body.cves.map((c: { score: number | null }) => c.score ?? -1);
      deepStrictEqual(
        scores,
        [...scores].sort((a: number, b: number) => b - a),
        "highest score first",
      );
      equal(
        new Set(body.cves.map((c: { id: string }) => c.id)).size,
        body.cves.length,
        "aliases merged",
      );
      equal(body.latest_version, "46.0.7");
    });
    await t.step(
      "cryptography without a version is ALLOWED under 'latest' (46.0.7 is clean)",
      async () => {
        const body = await evaluate(latest.url, "package=cryptography");
        equal(body.verdict, "ALLOWED", body.reason);
        deepStrictEqual(body.cves, []);
      },
    );
    await t.step("cryptography without a version is DENIED under 'any'", async () => {
      const body = await evaluate(any.url, "package=cryptography");
      equal(body.verdict, "DENIED", body.reason);
      equal(body.denial_category, "DENIAL_CVE");
    });
    await t.step("an unknown package takes its license from PyPI", async () => {
      const body = await evaluate(latest.url, "package=black");
      equal(body.verdict, "PROVISIONALLY_ALLOWED", body.reason);
      equal(body.license, "MIT");
      equal(
        body.license_raw,
        "License :: OSI Approved :: MIT License",
        "classifiers come before `license`",
      );
      equal(body.registry_status, null);
    });
  } finally {
    await latest.close();
    await any.close();
    await upstream.close();
  }
});

Deno.test("upstream 500, hang and malformed JSON each yield a decision without data within the timeout", async (t) => {
  const upstream = await startFakeUpstream();
  const timeout = 500;
  const server = await startTestServer({
    env: {
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      REDIS_URL: "none",
      LOOKUP_TIMEOUT_MS: String(timeout),
    },
  });
  try {
    for (const mode of ["error500", "hang", "malformed"] as const) {
      await t.step(mode, async () => {
        upstream.osv.mode = mode;
        upstream.pypi.mode = mode;
        const started = performance.now();
        const res = await fetch(`${server.url}/api/v1/evaluate?package=black&version=19.10b0`);
        const elapsed = performance.now() - started;
        equal(res.status, 200);
        const body = await res.json();
        equal(body.verdict, "PROVISIONALLY_ALLOWED");
        ok(/unavailable/.test(body.reason), body.reason);
        ok(elapsed < 2 * timeout + 500, `took ${elapsed.toFixed(0)} ms`);
      });
    }
  } finally {
    upstream.osv.mode = "ok";
    upstream.pypi.mode = "ok";
    await server.close();
    await upstream.close();
  }
});
