import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { createLogger } from "../log/logger.ts";
import { parseCidrList } from "./cidr.ts";
import { createHeaderAuthenticator, HEADER_CHALLENGE } from "./header.ts";
import { AuthError } from "./types.ts";

function setup(proxies = "127.0.0.1/32,::1/128") {
  const lines: string[] = [];
  const auth = createHeaderAuthenticator({
    trustedProxies: parseCidrList(proxies),
    log: createLogger("debug", (l) => lines.push(l)),
  });
  return { auth, lines };
}

const isAuthError = (e: unknown) => e instanceof AuthError && e.challenge === HEADER_CHALLENGE;

Deno.test("header authenticator reads user, email and comma-separated groups from a trusted peer", async () => {
  const { auth } = setup();
  const identity = await auth.authenticate({
    headers: new Headers({
      "x-forwarded-user": " alice ",
      "x-forwarded-email": "alice@example.org",
      "x-forwarded-groups": "devs, policy-admins,,devs ",
    }),
    remoteAddress: "::ffff:127.0.0.1",
  });
  deepStrictEqual(identity, {
    id: "alice",
    email: "alice@example.org",
    groups: ["devs", "policy-admins"],
    raw: { peer: "::ffff:127.0.0.1" },
  });
  equal(auth.name, "header");
});

Deno.test("header authenticator gives groups [] and no email when the gateway sends none", async () => {
  const { auth } = setup();
  const identity = await auth.authenticate({
    headers: new Headers({ "x-forwarded-user": "bob" }),
    remoteAddress: "::1",
  });
  deepStrictEqual(identity, { id: "bob", groups: [], raw: { peer: "::1" } });
});

Deno.test("header authenticator rejects untrusted or unknown peers, whatever X-Forwarded-For says", async (t) => {
  const { auth, lines } = setup("10.0.0.0/8");
  const headers = new Headers({ "x-forwarded-user": "alice", "x-forwarded-for": "10.0.0.1" });
  await t.step(
    "untrusted peer",
    () => rejects(auth.authenticate({ headers, remoteAddress: "127.0.0.1" }), isAuthError),
  );
  await t.step(
    "no peer address",
    () => rejects(auth.authenticate({ headers, remoteAddress: null }), isAuthError),
  );
  equal(lines.some((l) => JSON.parse(l).reason === "peer is not a trusted proxy"), true);
});

Deno.test("header authenticator rejects a trusted peer without X-Forwarded-User", async (t) => {
  const { auth } = setup();
  for (
    const headers of [
      new Headers(),
      new Headers({ "x-forwarded-user": "  " }),
      new Headers({ "x-forwarded-email": "a@b.c" }),
    ]
  ) {
    await t.step(
      JSON.stringify([...headers]),
      () => rejects(auth.authenticate({ headers, remoteAddress: "127.0.0.1" }), isAuthError),
    );
  }
});
