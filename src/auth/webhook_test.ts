import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { createLogger } from "../log/logger.ts";
import { AuthError } from "./types.ts";
import { bearerToken, createWebhookAuthenticator } from "./webhook.ts";

const TOKEN = "s3cret-token-value";

/** A fake verifier: answers by token, counts calls, records bodies. */
function fakeVerifier(answer: (token: string) => Response | Promise<Response>) {
  const calls: Array<{ url: string; body: unknown }> = [];
  const fetchFake = (async (input: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    calls.push({ url: String(input), body });
    return await answer(body.token);
  }) as typeof fetch;
  return { calls, fetchFake };
}

function setup(answer: (token: string) => Response | Promise<Response>, clock = { t: 0 }) {
  const lines: string[] = [];
  const verifier = fakeVerifier(answer);
  const auth = createWebhookAuthenticator({
    verifyUrl: "https://user:pw@verify.example/check?key=k",
    log: createLogger("debug", (l) => lines.push(l)),
    fetch: verifier.fetchFake,
    now: () => clock.t,
  });
  return { auth, lines, calls: verifier.calls, clock };
}

const request = (authorization?: string) => ({
  headers: new Headers(authorization ? { authorization } : {}),
  remoteAddress: "192.0.2.1",
});

const ok = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

Deno.test("bearerToken() takes the token of an Authorization: Bearer header only", () => {
  equal(bearerToken(new Headers({ authorization: "Bearer abc" })), "abc");
  equal(bearerToken(new Headers({ authorization: "bearer abc " })), "abc");
  equal(bearerToken(new Headers({ authorization: "Basic abc" })), undefined);
  equal(bearerToken(new Headers({ authorization: "Bearer a b" })), undefined);
  equal(bearerToken(new Headers()), undefined);
});

Deno.test("webhook authenticator posts {token} and returns the verifier's identity", async () => {
  const { auth, calls } = setup(() =>
    ok({ id: "alice", email: "a@example.org", groups: ["policy-admins"], team: "x" })
  );
  const identity = await auth.authenticate(request(`Bearer ${TOKEN}`));
  deepStrictEqual(identity, {
    id: "alice",
    email: "a@example.org",
    groups: ["policy-admins"],
    raw: { team: "x" },
  });
  deepStrictEqual(calls, [{
    url: "https://user:pw@verify.example/check?key=k",
    body: { token: TOKEN },
  }]);
  equal(auth.name, "webhook");
});

Deno.test("webhook authenticator caches a positive answer for at most 60 s", async () => {
  const { auth, calls, clock } = setup(() => ok({ id: "alice" }));
  await auth.authenticate(request(`Bearer ${TOKEN}`));
  clock.t = 59_999;
  deepStrictEqual(await auth.authenticate(request(`Bearer ${TOKEN}`)), {
    id: "alice",
    groups: [],
    raw: {},
  });
  equal(calls.length, 1);
  clock.t = 60_000;
  await auth.authenticate(request(`Bearer ${TOKEN}`));
  equal(calls.length, 2);
});

Deno.test("webhook authenticator shares one verifier call among concurrent requests", async () => {
  const { auth, calls } = setup(() => ok({ id: "alice" }));
  await Promise.all([1, 2, 3].map(() => auth.authenticate(request(`Bearer ${TOKEN}`))));
  equal(calls.length, 1);
});

Deno.test("webhook authenticator fails closed and never logs the token", async (t) => {
  const cases: Array<[string, (token: string) => Response | Promise<Response>]> = [
    ["non-2xx", () => ok({ id: "alice" }, 401)],
    ["server error", () => new Response("boom", { status: 500 })],
    ["not JSON", () => new Response("<html>", { status: 200 })],
    ["JSON without id", () => ok({ email: "a@example.org" })],
    ["id of the wrong type", () => ok({ id: 42 })],
    ["groups not a list", () => ok({ id: "a", groups: "admins" })],
    [
      "connection error",
      () =>
        Promise.reject(
          new TypeError(
            `error sending request for url (https://user:pw@verify.example/check?key=k) ${TOKEN}`,
          ),
        ),
    ],
    ["time-out", () => Promise.reject(new DOMException("Signal timed out.", "TimeoutError"))],
  ];
  for (const [name, answer] of cases) {
    await t.step(name, async () => {
      const { auth, lines, calls } = setup(answer);
      await rejects(auth.authenticate(request(`Bearer ${TOKEN}`)), (e) => e instanceof AuthError);
      await rejects(auth.authenticate(request(`Bearer ${TOKEN}`)), (e) => e instanceof AuthError);
      // A definite "no" (4xx) is remembered briefly; a failing verifier is asked again.
      equal(calls.length, name === "non-2xx" ? 1 : 2, "only rejections are cached");
      const text = lines.join("\n");
      equal(text.includes(TOKEN), false);
      equal(text.includes("pw"), false);
      equal(text.includes("key=k"), false);
    });
  }
});

Deno.test("webhook authenticator answers 401 without calling the verifier when there is no bearer token", async () => {
  const { auth, calls } = setup(() => ok({ id: "alice" }));
  await rejects(
    auth.authenticate(request()),
    (e) => e instanceof AuthError && e.challenge === 'Bearer realm="policyd"',
  );
  await rejects(auth.authenticate(request("Basic YTpi")), (e) => e instanceof AuthError);
  await rejects(
    auth.authenticate(request(`Bearer ${"x".repeat(9000)}`)),
    (e) => e instanceof AuthError,
  );
  equal(calls.length, 0);
});
