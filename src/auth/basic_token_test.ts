import assert from "node:assert/strict";
import { basicPassword, withBasicTokens } from "./basic_token.ts";
import { type Authenticator, AuthError } from "./types.ts";

const basic = (text: string) => new Headers({ authorization: `Basic ${btoa(text)}` });

Deno.test("basicPassword() reads the password of Basic credentials only", () => {
  assert.equal(basicPassword(basic("pip:t0k:en")), "t0k:en");
  assert.equal(basicPassword(basic("__token__:abc")), "abc");
  assert.equal(basicPassword(basic("user-only")), undefined);
  assert.equal(basicPassword(basic("user:")), undefined);
  assert.equal(basicPassword(new Headers({ authorization: "Bearer abc" })), undefined);
  assert.equal(basicPassword(new Headers({ authorization: "Basic !!!" })), undefined);
});

Deno.test("withBasicTokens() authenticates the Basic password as a bearer token and offers Basic on 401", async () => {
  const seen: Array<string | null> = [];
  const inner: Authenticator = {
    name: "webhook",
    authenticate(request) {
      seen.push(request.headers.get("authorization"));
      if (request.headers.get("authorization") === "Bearer good") {
        return Promise.resolve({ id: "ci", groups: [], raw: {} });
      }
      return Promise.reject(new AuthError("no", 'Bearer realm="policyd"'));
    },
  };
  const auth = withBasicTokens(inner);
  assert.equal(auth.name, "webhook");
  const identity = await auth.authenticate({ headers: basic("pip:good"), remoteAddress: null });
  assert.equal(identity.id, "ci");
  const refused = await auth.authenticate({ headers: basic("pip:bad"), remoteAddress: null })
    .catch((e) => e);
  assert.ok(refused instanceof AuthError);
  assert.equal(refused.challenge, 'Bearer realm="policyd", Basic realm="policyd"');
  await auth.authenticate({
    headers: new Headers({ authorization: "Bearer good" }),
    remoteAddress: null,
  });
  assert.deepEqual(seen, ["Bearer good", "Bearer bad", "Bearer good"]);
});
