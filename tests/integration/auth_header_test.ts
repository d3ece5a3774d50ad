/**
 * Org mode with the `header` backend over real sockets: the gateway's
 * headers count only from a TRUSTED_PROXIES peer; the identity id is the
 * audit requester; operator-only routes need OPERATOR_GROUP.
 */
import { deepStrictEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { queryDb } from "../helpers/db.ts";
import { type TestServer, withTestServer } from "../helpers/server.ts";

const ORG = { AUTH_ENABLED: "true", AUTH_BACKEND: "header" };

const withServer = withTestServer;

async function evaluateAs(server: TestServer, headers: Record<string, string>) {
  const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, { headers });
  return { res, body: await res.json() };
}

function requesterOf(server: TestServer, auditId: unknown): unknown {
  return queryDb(server.dbPath, "SELECT requester FROM audit_log WHERE id = ?", String(auditId))[0]
    ?.requester;
}

async function expectUnauthorized(res: Response) {
  equal(res.status, 401);
  equal(res.headers.get("content-type"), "application/problem+json");
  ok(res.headers.get("www-authenticate"), "401 carries WWW-Authenticate");
  return await res.json();
}

Deno.test("header backend trusts X-Forwarded-* from 127.0.0.1 and records the user as requester", async () => {
  await withServer({ env: ORG }, async (server) => {
    const { res, body } = await evaluateAs(server, {
      "x-forwarded-user": "alice",
      "x-forwarded-email": "alice@example.org",
      "x-forwarded-groups": "devs",
    });
    equal(res.status, 200);
    equal(requesterOf(server, body.audit_id), "alice");
  });
});

Deno.test("header backend: a trusted caller sees the dashboard, an anonymous one gets 401", async () => {
  await withServer({ env: ORG }, async (server) => {
    const page = await fetch(`${server.url}/`, { headers: { "x-forwarded-user": "alice" } });
    equal(page.status, 200);
    match(page.headers.get("content-type") ?? "", /^text\/html/);
    await page.body?.cancel();
    await expectUnauthorized(await fetch(`${server.url}/`));
  });
});

Deno.test("header backend trusts ::1 when TRUSTED_PROXIES lists it, and only then", async (t) => {
  await t.step(
    "listed",
    () =>
      withServer(
        { hostname: "::1", env: { ...ORG, TRUSTED_PROXIES: "127.0.0.1/32, ::1/128" } },
        async (server) => {
          match(server.url, /^http:\/\/\[::1\]:\d+$/);
          const { res, body } = await evaluateAs(server, { "x-forwarded-user": "ipv6-user" });
          equal(res.status, 200);
          equal(requesterOf(server, body.audit_id), "ipv6-user");
        },
      ),
  );
  await t.step(
    "not listed (default 127.0.0.1/32)",
    () =>
      withServer({ hostname: "::1", env: ORG }, async (server) => {
        const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
          headers: { "x-forwarded-user": "ipv6-user" },
        });
        await expectUnauthorized(res);
      }),
  );
});

Deno.test("header backend answers 401 to an untrusted peer even with the headers and X-Forwarded-For set", async () => {
  await withServer({ env: { ...ORG, TRUSTED_PROXIES: "10.0.0.0/8,fd00::/8" } }, async (server) => {
    const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
      headers: {
        "x-forwarded-user": "alice",
        "x-forwarded-groups": "policy-admins",
        "x-forwarded-for": "10.1.2.3",
        "x-real-ip": "10.1.2.3",
        forwarded: "for=10.1.2.3",
      },
    });
    const problem = await expectUnauthorized(res);
    equal(JSON.stringify(problem).includes("alice"), false);
    equal(queryDb(server.dbPath, "SELECT COUNT(*) AS n FROM audit_log")[0].n, 0);
  });
});

Deno.test("header backend answers 401 without X-Forwarded-User, with the same body as for an untrusted peer", async () => {
  await withServer({ env: ORG }, async (server) => {
    const missing = await expectUnauthorized(
      await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
        headers: { "x-forwarded-email": "a@b.c" },
      }),
    );
    await withServer({ env: { ...ORG, TRUSTED_PROXIES: "10.0.0.0/8" } }, async (other) => {
      const untrusted = await expectUnauthorized(
        await fetch(`${other.url}/api/v1/evaluate?package=requests`, {
          headers: { "x-forwarded-user": "mallory" },
        }),
      );
      deepStrictEqual(untrusted, missing, "failures are indistinguishable to the caller");
    });
  });
});

Deno.test("operator-only reload: 403 outside OPERATOR_GROUP, 200 inside, 401 anonymous", async () => {
  await withServer({ env: { ...ORG, OPERATOR_GROUP: "policy-admins" } }, async (server) => {
    const reload = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/v1/registry/reload`, { method: "POST", headers });
    const outsider = await reload({
      "x-forwarded-user": "bob",
      "x-forwarded-groups": "devs, policy-admins-not",
    });
    equal(outsider.status, 403);
    equal(outsider.headers.get("content-type"), "application/problem+json");
    equal((await outsider.json()).status, 403);
    const noGroups = await reload({ "x-forwarded-user": "bob" });
    equal(noGroups.status, 403);
    await noGroups.body?.cancel();
    const operator = await reload({
      "x-forwarded-user": "alice",
      "x-forwarded-groups": "devs, policy-admins",
    });
    equal(operator.status, 200);
    equal((await operator.json()).ok, true);
    await expectUnauthorized(await reload({}));
  });
});

Deno.test("operator-only proposals: 403 outside OPERATOR_GROUP, 200 inside", async () => {
  await withServer({ env: { ...ORG, OPERATOR_GROUP: "ops" } }, async (server) => {
    const propose = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/v1/registry/proposals`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({
          rule: { name: "left-pad", status: "approved" },
          context: { source: "operator" },
        }),
      });
    const outsider = await propose({
      "x-forwarded-user": "bob",
      "x-forwarded-groups": "policy-admins",
    });
    equal(outsider.status, 403);
    equal(outsider.headers.get("content-type"), "application/problem+json");
    await outsider.body?.cancel();
    await expectUnauthorized(await propose({}));
    const operator = await propose({ "x-forwarded-user": "alice", "x-forwarded-groups": "ops" });
    equal(operator.status, 200);
    ok((await operator.json()).result);
  });
});

Deno.test("org mode: /health needs no authentication and reports the auth mode; other pages need it", async () => {
  await withServer({ env: { ...ORG, TRUSTED_PROXIES: "10.0.0.0/8" } }, async (server) => {
    const health = await fetch(`${server.url}/api/v1/health`);
    equal(health.status, 200);
    deepStrictEqual((await health.json()).auth, { enabled: true, backend: "header" });
    for (const path of ["/", "/dashboard/security", "/api/v1/registry", "/api/v1/reports/legal"]) {
      await expectUnauthorized(await fetch(`${server.url}${path}`));
    }
    const css = await fetch(`${server.url}/static/app.css`);
    notEqual(css.status, 401, "static assets of the dashboards are public");
    await css.body?.cancel();
    const openapi = await fetch(`${server.url}/api/v1/openapi.json`);
    notEqual(openapi.status, 401);
    await openapi.body?.cancel();
  });
});
