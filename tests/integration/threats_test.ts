import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";
import { hallucinatedNames, serveMalicious, youngProject } from "../helpers/threat_data.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { policy, writePolicyToml } from "../../cli/policy/_testing.ts";

async function evaluate(url: string, query: string) {
  const res = await fetch(`${url}/api/v1/evaluate?${query}`);
  equal(res.status, 200);
  return await res.json();
}

const YESTERDAY = new Date(Date.now() - 86_400_000);

Deno.test("a fresh quickstart denies a malicious package, a hallucinated name, a typosquat and a day-old project", async (t) => {
  const upstream = await startFakeUpstream();
  await serveMalicious(upstream, ["MAL-2022-7439", "MAL-2025-975", "MAL-2024-10183"]);
  upstream.addPypiResponse("reqeusts", await youngProject("requests", "reqeusts", YESTERDAY));
  upstream.addPypiResponse(
    "pygame-music-grid",
    await youngProject("pygame-music-grid", "pygame-music-grid", YESTERDAY),
  );
  const server = await startTestServer({
    env: { OSV_API_URL: upstream.url, PYPI_URL: upstream.url, POPULAR_PACKAGES_URL: "off" },
  });
  try {
    await t.step("a MAL- advisory: DENIAL_MALICIOUS, whatever the version", async () => {
      for (const query of ["package=requestts", "package=requestts==1.0.0"]) {
        const body = await evaluate(server.url, query);
        equal(body.verdict, "DENIED", body.reason);
        equal(body.denial_category, "DENIAL_MALICIOUS");
        deepStrictEqual(body.threats.map((x: { id: string }) => x.id), ["MAL-2022-7439"]);
        equal(body.max_cvss, null);
        deepStrictEqual(body.cves, []);
      }
    });
    await t.step("a version-list advisory affects only its versions", async () => {
      const hit = await evaluate(server.url, "package=reqzest==2.32.2");
      equal(hit.denial_category, "DENIAL_MALICIOUS");
    });
    await t.step("a hallucinated name PyPI answers 404 for: DENIAL_NOT_FOUND", async () => {
      const body = await evaluate(server.url, "package=huggingface-cli");
      equal(body.verdict, "DENIED", body.reason);
      equal(body.denial_category, "DENIAL_NOT_FOUND");
      equal(body.threats[0].kind, "not_found");
      deepStrictEqual(body.threats[0].similar_to, ["huggingface-hub", "huggingface"]);
      match(body.reason, /did you mean `huggingface-hub`/);
    });
    await t.step("every hallucinated name of the published research is denied", async () => {
      const names = await hallucinatedNames();
      ok(names.length >= 15, names.join(", "));
      const res = await fetch(`${server.url}/api/v1/evaluate/batch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ packages: names.map((p) => ({ package: p })) }),
      });
      const { results } = await res.json();
      for (const r of results) {
        equal(r.denial_category, "DENIAL_NOT_FOUND", `${r.package}: ${r.reason}`);
      }
    });
    await t.step("a release PyPI lacks: DENIAL_NOT_FOUND naming the latest", async () => {
      const body = await evaluate(server.url, "package=colorama==9.9.9");
      equal(body.denial_category, "DENIAL_NOT_FOUND", body.reason);
      equal(body.threats[0].detail, "no release 9.9.9; latest is 0.3.9");
    });
    await t.step("a typosquat of requests: DENIAL_TYPOSQUAT with the suggestion", async () => {
      const body = await evaluate(server.url, "package=reqeusts");
      equal(body.denial_category, "DENIAL_TYPOSQUAT", body.reason);
      equal(
        body.reason,
        "`reqeusts` looks like a typo of `requests` (a popular project); did you mean `requests`?",
      );
      deepStrictEqual(body.threats[0].similar_to, ["requests"]);
    });
    await t.step("a project first released yesterday: DENIAL_NEW_PROJECT", async () => {
      const body = await evaluate(server.url, "package=pygame-music-grid");
      equal(body.denial_category, "DENIAL_NEW_PROJECT", body.reason);
      match(body.reason, /first released on PyPI 1 day ago; .* younger than 14 days/);
    });
    await t.step("a yanked release: DENIAL_YANKED with the reason", async () => {
      const body = await evaluate(server.url, "package=black==21.11b0");
      equal(body.denial_category, "DENIAL_YANKED", body.reason);
      match(body.reason, /Broken regex dependency/);
    });
    await t.step("a registry package gets no threats and no extra upstream call", async () => {
      upstream.resetCalls();
      const body = await evaluate(server.url, "package=pycrypto");
      equal(body.denial_category, "DENIAL_BANNED");
      deepStrictEqual(body.threats, []);
      equal(upstream.calls["pypi.project"] + upstream.calls["osv.query"], 0);
    });
    await t.step("the MCP answer carries the threat and the suggestion", async () => {
      const client = new Client({ name: "policyd-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        const result = await client.callTool({
          name: "check_package",
          arguments: { package: "reqeusts" },
        });
        const out = result.structuredContent as {
          category: string;
          reason: string;
          threats: Array<{ kind: string; similar_to?: string[] }>;
        };
        equal(out.category, "DENIAL_TYPOSQUAT");
        match(out.reason, /did you mean `requests`\?/);
        deepStrictEqual(out.threats.map((x) => [x.kind, x.similar_to]), [["typosquat", [
          "requests",
        ]]]);
      } finally {
        await client.close();
      }
    });
    await t.step("policy check shows the threat; --json carries threats", async () => {
      const dir = await Deno.makeTempDir({ prefix: "policy-threats-" });
      try {
        await writePolicyToml(dir, server.url);
        const json = await policy(["check", "reqeusts", "--json"], { cwd: dir });
        equal(json.code, 2, json.stderr);
        const body = JSON.parse(json.stdout);
        equal(body.threats[0].kind, "typosquat");
        deepStrictEqual(body.threats[0].similar_to, ["requests"]);
        const human = await policy(["check", "reqeusts"], { cwd: dir });
        equal(human.code, 2);
        match(human.stdout, /reqeusts is DENIED \(DENIAL_TYPOSQUAT\).*did you mean `requests`\?/);
        match(human.stderr, /policy: threat \(typosquat\): .*; similar to requests/);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
    await t.step("the security report and dashboards count and show threats by kind", async () => {
      const res = await fetch(`${server.url}/api/v1/reports/security?days=7`);
      equal(res.status, 200);
      const report = await res.json();
      equal(report.threats.by_kind.malicious, 3);
      equal(report.threats.by_kind.typosquat, 4, "HTTP, MCP and two CLI evaluations");
      equal(report.threats.by_kind.new_project, 1);
      equal(report.threats.by_kind.yanked, 1);
      ok(report.threats.by_kind.not_found >= 17, JSON.stringify(report.threats.by_kind));
      ok(report.threats.recent.length > 0);
      const page = await (await fetch(`${server.url}/dashboard/security`)).text();
      match(page, /data-testid="threats-by-kind"/);
      match(page, /Look-alike of a popular project<\/td><td class="num">4</);
      const pkg = await (await fetch(`${server.url}/dashboard/package/reqeusts`)).text();
      match(pkg, /data-testid="package-threats"/);
      match(pkg, /similar to requests/);
    });
    await t.step("the audit rows carry the threats", async () => {
      const store = openSqliteStore(server.dbPath);
      try {
        const rows = await store.audit.list({ package: "reqeusts" }, 1);
        equal(rows[0].threats?.[0].kind, "typosquat");
      } finally {
        await store.close();
      }
    });
  } finally {
    await server.close();
    await upstream.close();
  }
});
