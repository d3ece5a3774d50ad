import assert from "node:assert/strict";
import { parse } from "yaml";
import { validateRegistry } from "../src/registry/schema.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { exportRegistryYaml } from "./export.ts";
import { DASHBOARD_CSP, dashboardRoutes } from "./routes.tsx";
import { Hono } from "hono";
import { compileRegistry, createSnapshot } from "../src/registry/compile.ts";

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
          "/dashboard/audit",
          "/dashboard/audit?verdict=DENIED&days=7&source=api",
          "/dashboard/package/pycrypto",
          "/dashboard/package/never-seen",
          "/dashboard/requests",
          "/dashboard/requests?status=REJECTED&agent_model=claude&package=Left_Pad",
          "/dashboard/history",
          "/dashboard/history?package=Requests&before=5",
        ]
      ) {
        const response = await fetch(server.url + path);
        const body = await response.text();
        assert.equal(response.status, 200, path);
        assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
        assert.equal(response.headers.get("content-security-policy"), DASHBOARD_CSP);
        assert.ok(body.startsWith("<!DOCTYPE html>"), path);
        // Nothing loads from elsewhere; the only outside links are OSV advisories.
        assert.ok(
          !/https?:\/\/(?!127\.0\.0\.1|osv\.dev\/vulnerability\/)/.test(
            body.replace(/curl '[^']*'|--server-url \S+/g, ""),
          ),
          path,
        );
      }
    });

    await t.step("an unknown dashboard path answers an HTML 404 page", async () => {
      for (const path of ["/dashboard/nope", "/dashboard/package/bad%20name", "/dashboard/a/b"]) {
        const response = await fetch(server.url + path);
        const body = await response.text();
        assert.equal(response.status, 404, path);
        assert.match(response.headers.get("content-type") ?? "", /^text\/html/, path);
        assert.equal(response.headers.get("content-security-policy"), DASHBOARD_CSP);
        assert.match(body, /<title>Page not found · policyd<\/title>/);
      }
      const api = await fetch(`${server.url}/api/v1/nope`);
      assert.equal(api.headers.get("content-type"), "application/problem+json");
      await api.body?.cancel();
    });

    await t.step("an invalid page query answers a 400 page naming the parameter", async () => {
      const response = await fetch(`${server.url}/dashboard/audit?verdict=MAYBE`);
      const body = await response.text();
      assert.equal(response.status, 400);
      assert.match(body, /Invalid <code>verdict<\/code>/);
      for (
        const [path, param] of [
          ["/dashboard/requests?status=MAYBE", "status"],
          ["/dashboard/requests?package=no%20such", "package"],
          ["/dashboard/history?before=-3", "before"],
        ]
      ) {
        const page = await fetch(server.url + path);
        assert.equal(page.status, 400, path);
        assert.match(await page.text(), new RegExp(`Invalid <code>${param}</code>`), path);
      }
    });

    await t.step("/favicon.ico is an icon", async () => {
      const response = await fetch(`${server.url}/favicon.ico`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "image/x-icon");
      assert.deepEqual([...bytes.slice(0, 4)], [0, 0, 1, 0]);
      assert.equal(bytes.length, 22 + 40 + 32 * 32 * 4 + 32 * 4);
    });

    await t.step("the audit export holds the filtered rows as CSV and JSON", async () => {
      for (const pkg of ["pycrypto", "requests"]) {
        const r = await fetch(`${server.url}/api/v1/evaluate?package=${pkg}`);
        await r.body?.cancel();
      }
      const csv = await fetch(`${server.url}/dashboard/audit/export.csv?verdict=DENIED`);
      assert.match(
        csv.headers.get("content-disposition") ?? "",
        /attachment; filename="policyd-audit-/,
      );
      const lines = (await csv.text()).trim().split("\n");
      assert.equal(lines.length, 2);
      assert.match(lines[0], /^id,ts,package,version,verdict,denial_category,project/);
      assert.match(lines[1], /,pycrypto,,DENIED,DENIAL_BANNED,default,/);
      const json = await (await fetch(`${server.url}/dashboard/audit/export.json`)).json();
      assert.deepEqual(json.items.map((r: { package: string }) => r.package), [
        "requests",
        "pycrypto",
      ]);
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

Deno.test("a failure while building a page answers an HTML 500 page with the request id", async () => {
  const compiled = await compileRegistry("packages: []", new Date(0));
  assert.ok(compiled.ok);
  const snapshot = createSnapshot(compiled.registry, compiled.contentHash);
  const logged: string[] = [];
  const failing = () => Promise.reject(new Error("database is gone"));
  const app = new Hono<{ Variables: { requestId: string; log: unknown } }>();
  app.use("*", async (c, next) => {
    c.set("requestId", "req-42");
    c.set("log", { error: (message: string) => logged.push(message) });
    await next();
  });
  app.route(
    "/",
    dashboardRoutes({
      registry: { current: () => snapshot },
      audit: { list: failing, group: failing },
      proposerName: () => "log_only",
      version: "test",
      now: () => new Date(0),
      review: { requests: failing, changes: failing },
    }),
  );
  const response = await app.request("/dashboard/audit");
  const body = await response.text();
  assert.equal(response.status, 500);
  assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(body, /<title>Something went wrong · policyd<\/title>/);
  assert.match(body, /req-42/);
  assert.ok(!body.includes("database is gone"), "the error stays in the log");
  assert.deepEqual(logged, ["dashboard error"]);
});
