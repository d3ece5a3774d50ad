import assert from "node:assert/strict";
import { Hono } from "hono";
import { AgentTestClient } from "./agent_test_client.ts";
import { compileWorkflow } from "./compile_workflow.ts";
import { buildDocument, serializeDocument } from "./document.ts";
import { WorkflowRecorder } from "./recorder.ts";
import { isSecretKey, redact, redactString } from "./redact.ts";
import { renderDocument } from "./render.ts";
import type { ApiStep } from "./types.ts";

const SECRETS = {
  github: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  githubPat: "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
  aws: "AKIAIOSFODNN7EXAMPLE",
  slack: "xoxb-123456789012-abcdefghijkl",
  jwt:
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  bearer: "Bearer s3cr3t-opaque-value-42",
  pem: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7secret\n-----END RSA PRIVATE KEY-----",
  password: "hunter2-password-value",
  apiKey: "plain-api-key-value-9876",
  session: "session-cookie-value-5555",
};

Deno.test("isSecretKey() matches the SPEC words case- and -/_-insensitively", () => {
  for (
    const key of [
      "password",
      "PASSWD",
      "client_secret",
      "X-Api-Key",
      "apikey",
      "Authorization",
      "set-cookie",
      "session_id",
      "Private-Key",
      "credentials",
      "Signature",
      "refreshToken",
    ]
  ) {
    assert.equal(isSecretKey(key), true, key);
  }
  for (const key of ["package", "version", "rationale", "audit_id", "name"]) {
    assert.equal(isSecretKey(key), false, key);
  }
});

Deno.test("redact() replaces values under secret keys and token-shaped strings, keeping shape", () => {
  const out = redact({
    user: "ann",
    Password: "x",
    nested: { api_key: { deep: 1 }, list: [SECRETS.github, "fine", `token is ${SECRETS.jwt}`] },
    note: null,
    session: null,
    aws: SECRETS.aws,
  });
  assert.deepEqual(out, {
    user: "ann",
    Password: "[REDACTED]",
    nested: {
      api_key: { deep: "[REDACTED]" },
      list: ["[REDACTED]", "fine", "token is [REDACTED]"],
    },
    note: null,
    session: null,
    aws: "[REDACTED]",
  });
});

Deno.test("redactString() catches every token family of SPEC §13", async (t) => {
  for (const [kind, secret] of Object.entries(SECRETS)) {
    if (["password", "apiKey", "session"].includes(kind)) continue;
    await t.step(kind, () => {
      const out = redactString(`before ${secret} after`);
      assert.equal(out.includes(secret), false);
      assert.match(out, /\[REDACTED\]/);
    });
  }
  assert.equal(redactString("Bearer token"), "Bearer token", "prose is not a credential");
});

Deno.test("secrets planted in request bodies, queries and responses never reach the markdown or JSON", async () => {
  const app = new Hono()
    .post("/login", (c) =>
      c.json({
        user: "ann",
        access_token: SECRETS.jwt,
        note: `your key ${SECRETS.github}`,
        aws: SECRETS.aws,
        pem: SECRETS.pem,
        hook: SECRETS.slack,
      }))
    .get("/me", (c) => c.json({ user: "ann", auth_echo: c.req.header("authorization") ?? "" }));
  const client = new AgentTestClient(app, { headers: { authorization: SECRETS.bearer } });
  const recorder = new WorkflowRecorder();
  await recorder.run(async () => {
    await client.post("/login", {
      json: { user: "ann", password: SECRETS.password, github: SECRETS.githubPat },
      query: { api_key: SECRETS.apiKey, session: SECRETS.session, q: SECRETS.bearer },
    });
    await client.get(`/me?apikey=${SECRETS.apiKey}&x=${SECRETS.aws}`, {
      headers: { cookie: SECRETS.session },
    });
  });
  const wf = compileWorkflow({
    name: "Log in",
    intent: "Get a token.",
    source: { file: "./login_test.ts", test: "log in", index: 0 },
    steps: recorder.steps(),
  });
  const doc = buildDocument([wf]);
  const outputs = [renderDocument(doc), serializeDocument(doc)];
  for (const output of outputs) {
    for (
      const secret of [
        ...Object.values(SECRETS),
        "s3cr3t-opaque-value-42",
        "MIIEowIBAAKCAQEA7secret",
      ]
    ) {
      assert.equal(output.includes(secret), false, `leaked ${secret}`);
    }
    assert.match(output, /\[REDACTED\]/);
  }
  // Headers the test set are published, their secret values redacted.
  const [login, me] = wf.steps as ApiStep[];
  assert.deepEqual(login.headers, { authorization: "[REDACTED]" });
  assert.deepEqual(me.headers, { authorization: "[REDACTED]", cookie: "[REDACTED]" });
});
