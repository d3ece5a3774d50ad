import assert from "node:assert/strict";
import { parse } from "yaml";
import { validateRegistry } from "../src/registry/schema.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { exportRegistryYaml } from "./export.ts";
import { parseReportQuery } from "./params.ts";
import { DASHBOARD_CSP } from "./routes.tsx";

Deno.test("dashboard routes answer with HTML, assets and YAML", async (t) => {
  const server = await startTestServer();
  try {
    await t.step("every page is HTML with a same-origin CSP", async () => {
      for (
        const path of [
          "/",
          "/dashboard/security",
          "/dashboard/legal",
          "/dashboard/agents",
          "/dashboard/registry",
        ]
      ) {
        const response = await fetch(server.url + path);
        const body = await response.text();
        assert.equal(response.status, 200, path);
        assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
        assert.equal(response.headers.get("content-security-policy"), DASHBOARD_CSP);
        assert.ok(body.startsWith("<!DOCTYPE html>"), path);
        assert.ok(
          !/https?:\/\/(?!127\.0\.0\.1)/.test(body.replace(/curl '[^']*'|--server-url \S+/g, "")),
          path,
        );
      }
    });

    await t.step("static assets carry an ETag and answer 304 to it", async () => {
      const first = await fetch(`${server.url}/static/app.css`);
      await first.body?.cancel();
      const etag = first.headers.get("etag");
      assert.ok(etag);
      const second = await fetch(`${server.url}/static/app.css`, {
        headers: { "if-none-match": etag },
      });
      await second.body?.cancel();
      assert.equal(second.status, 304);
      const missing = await fetch(`${server.url}/static/nope.js`);
      await missing.body?.cancel();
      assert.equal(missing.status, 404);
    });

    await t.step("the export is an attachment that validates", async () => {
      const response = await fetch(`${server.url}/dashboard/registry/export.yaml`);
      assert.match(
        response.headers.get("content-disposition") ?? "",
        /attachment; filename="registry.yaml"/,
      );
      const result = validateRegistry(parse(await response.text()));
      assert.ok(result.ok);
    });

    await t.step(
      "an invalid proposed rule in the export query answers 400 with paths",
      async () => {
        const rule = encodeURIComponent(JSON.stringify({ name: "x", status: "nope" }));
        const response = await fetch(`${server.url}/dashboard/registry/export.yaml?rule=${rule}`);
        const body = await response.json();
        assert.equal(response.status, 400);
        assert.equal(body.errors[0].path, "rule[0].status");
      },
    );
  } finally {
    await server.close();
  }
});

Deno.test("exportRegistryYaml() merges proposed rules and drops the version", () => {
  const registry = {
    version: "1",
    compiled_at: "2026-01-01T00:00:00.000Z",
    policies: {
      cve_threshold: 7,
      block_on_cve: true,
      unversioned_cve_scope: "latest" as const,
      licenses: { allowed: ["MIT"], denied: [] },
      unknown_license_policy: "provisional" as const,
      on_missing_data: "allow" as const,
      min_release_age_days: 0,
    },
    packages: [{ name: "six", status: "approved" as const }],
    exceptions: [{
      package: "six",
      vulnerabilities: ["CVE-2024-0001"],
      reason: "not reachable",
      expires: "2027-01-31",
    }],
  };
  const result = exportRegistryYaml(
    registry,
    ['{"name":"Six","status":"banned","reason":"old"}'],
    new Date(0),
  );
  assert.ok(result.ok);
  const doc = parse(result.yaml);
  assert.equal(doc.version, undefined);
  assert.deepEqual(doc.packages, [{ name: "six", status: "banned", reason: "old" }]);
  assert.deepEqual(doc.exceptions, registry.exceptions, "exceptions survive the export");
  const plain = exportRegistryYaml(registry, [], new Date(0));
  assert.ok(plain.ok && parse(plain.yaml).version === "1");
});

Deno.test("parseReportQuery() mirrors the report API's parameters", () => {
  assert.deepEqual(parseReportQuery({}), {
    ok: true,
    query: { days: 30, limit: 20, project: null, search: "?days=30" },
  });
  const scoped = parseReportQuery({ days: "7", project: "web" });
  assert.ok(scoped.ok && scoped.query.search === "?days=7&project=web");
  const all = parseReportQuery({ project: "*" });
  assert.ok(all.ok && all.query.project === null);
  assert.equal(parseReportQuery({ days: "0" }).ok, false);
});
