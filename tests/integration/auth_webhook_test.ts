/**
 * Org mode with the `webhook` backend against a loopback verifier: the
 * verifier's identity is the requester; every failure is a 401 (fail
 * closed, bounded by the time-out); tokens never reach the logs.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { queryDb } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ALICE = "tok-alice-5f1c2e9a7d";
const BOB = "tok-bob-0b8e44c1aa";
const GARBAGE = "tok-garbage-77aa01";
const SLOW = "tok-slow-c0ffee42";
const WRONG = "tok-wrong-deadbeef";
const ALL_TOKENS = [ALICE, BOB, GARBAGE, SLOW, WRONG];

/** A loopback verifier implementing the contract in docs/auth.md. */
function startVerifier() {
  const calls: string[] = [];
  const release = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const { token } = await request.json();
    calls.push(token);
    if (token === ALICE) {
      return Response.json({ id: "alice", email: "alice@example.org", groups: ["policy-admins"] });
    }
    if (token === BOB) return Response.json({ id: "bob", groups: ["devs"] });
    if (token === GARBAGE) return new Response("<html>ok</html>", { status: 200 });
    if (token === SLOW) {
      await Promise.race([
        release.promise,
        new Promise((resolve) => request.signal.addEventListener("abort", resolve)),
      ]);
      return Response.json({ id: "too-late" });
    }
    return Response.json({ error: "unknown token" }, { status: 401 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/verify`,
    calls,
    async close() {
      release.resolve();
      await server.shutdown();
    },
  };
}

function requesterOf(server: TestServer, auditId: unknown): unknown {
  return queryDb(server.dbPath, "SELECT requester FROM audit_log WHERE id = ?", String(auditId))[0]
    ?.requester;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

Deno.test("webhook backend: verified identities, operator rights, fail-closed answers, no token in logs", async (t) => {
  const verifier = startVerifier();
  const logLines: string[] = [];
  const server = await startTestServer({
    env: { AUTH_ENABLED: "true", AUTH_BACKEND: "webhook", AUTH_VERIFY_URL: verifier.url },
    logLines,
  });
  try {
    await t.step("a valid token: the verifier's id is the audit requester", async () => {
      const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
        headers: bearer(ALICE),
      });
      equal(res.status, 200);
      equal(requesterOf(server, (await res.json()).audit_id), "alice");
    });

    await t.step("a positive answer is cached (the verifier is asked once)", async () => {
      const res = await fetch(`${server.url}/api/v1/evaluate?package=flask`, {
        headers: bearer(ALICE),
      });
      equal(res.status, 200);
      await res.body?.cancel();
      equal(verifier.calls.filter((token) => token === ALICE).length, 1);
    });

    await t.step("operator group from the verifier: alice may reload, bob may not", async () => {
      const reload = (token: string) =>
        fetch(`${server.url}/api/v1/registry/reload`, { method: "POST", headers: bearer(token) });
      const asAlice = await reload(ALICE);
      equal(asAlice.status, 200);
      await asAlice.body?.cancel();
      const asBob = await reload(BOB);
      equal(asBob.status, 403);
      equal((await asBob.json()).status, 403);
    });

    await t.step(
      "an invalid token, a non-JSON answer or no token → 401 with WWW-Authenticate",
      async () => {
        const bodies = [];
        for (
          const headers of [bearer(WRONG), bearer(GARBAGE), {}, {
            authorization: `Basic ${btoa("alice:pw")}`,
          }]
        ) {
          const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, { headers });
          equal(res.status, 401);
          equal(res.headers.get("content-type"), "application/problem+json");
          match(res.headers.get("www-authenticate") ?? "", /^Bearer realm="policyd"/);
          bodies.push(await res.json());
        }
        for (const body of bodies) deepStrictEqual(body, bodies[0], "failures do not say why");
      },
    );

    await t.step("a slow verifier → 401 within the time-out", async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
        headers: bearer(SLOW),
      });
      const elapsed = performance.now() - started;
      equal(res.status, 401);
      await res.body?.cancel();
      ok(elapsed < 6000, `answered after ${Math.round(elapsed)} ms`);
    });

    await t.step(
      "/health needs no token and reveals neither the verifier URL nor a token",
      async () => {
        const res = await fetch(`${server.url}/api/v1/health`);
        equal(res.status, 200);
        const text = await res.text();
        deepStrictEqual(JSON.parse(text).auth, { enabled: true, backend: "webhook" });
        equal(text.includes(verifier.url), false);
        equal(text.includes("/verify"), false);
      },
    );

    await t.step("no token appears in any log line", () => {
      ok(logLines.length > 0, "logs were captured");
      const logs = logLines.join("\n");
      for (const token of ALL_TOKENS) {
        equal(logs.includes(token), false, `token ${token.slice(0, 7)}… leaked`);
      }
      ok(logs.includes("authentication failed"), "failures are logged (without the token)");
    });
  } finally {
    await server.close();
    await verifier.close();
  }
});

Deno.test("webhook backend fails closed with 401 when the verifier is down", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const logLines: string[] = [];
  const server = await startTestServer({
    env: {
      AUTH_ENABLED: "true",
      AUTH_BACKEND: "webhook",
      AUTH_VERIFY_URL: `http://127.0.0.1:${port}/verify`,
    },
    logLines,
  });
  try {
    const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
      headers: bearer(ALICE),
    });
    equal(res.status, 401);
    ok(res.headers.get("www-authenticate"));
    await res.body?.cancel();
    equal(queryDb(server.dbPath, "SELECT COUNT(*) AS n FROM audit_log")[0].n, 0);
    const logs = logLines.join("\n");
    ok(logs.includes("auth verifier unreachable"));
    equal(logs.includes(ALICE), false);
  } finally {
    await server.close();
  }
});
