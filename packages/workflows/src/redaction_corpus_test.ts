/**
 * The secret corpus: real-shaped (but fake) credentials of many services sent
 * through every position a workflow document shows — request headers, query,
 * path, JSON bodies at any depth, text and JSON responses, response headers,
 * step labels, the workflow's name, intent and requirements — via the real
 * client, a Hono app, the compiler and the renderer. None may reach the
 * Markdown or the JSON twin.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { AgentTestClient } from "./agent_test_client.ts";
import { compileWorkflow } from "./compile_workflow.ts";
import { buildDocument, serializeDocument } from "./document.ts";
import { WorkflowRecorder } from "./recorder.ts";
import { Redactor } from "./redact.ts";
import { renderDocument } from "./render.ts";
import { stepBoundary } from "./step_boundary.ts";

/** Credentials recognised by their value, wherever they appear. */
const VALUE_SHAPED: Record<string, string> = {
  "GitHub classic PAT": "ghp_R2d9Kx7LmQ4vT8nB3wZ6yH1cF5jP0sA9eU2i",
  "GitHub OAuth token": "gho_16C7e42F292c6912E7710c838347Ae178B4a",
  "GitHub user-to-server": "ghu_kT9mW2xQ7vL4nR8pB3zY6hJ1cF5dS0aE9gU2",
  "GitHub server-to-server": "ghs_Zq8Lm3Xv7Rt2Np6Bw9Yk4Hc1Jf5Ds0Ae3Gu8",
  "GitHub refresh token": "ghr_1B4a2e77838347a7E420ce178F2E7c6912E1",
  "GitHub fine-grained PAT":
    "github_pat_11AJKW3MQ0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLMNOPqrstuvw",
  "GitLab PAT": "glpat-x9Kq2Lm7Vt4Rp8Nb3Wz6",
  "Stripe live secret key": "sk_live_51H8xKqL2mVt4Rp8Nb3Wz6Yh1Cf5Jd0Sa",
  "Stripe test secret key": "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "Stripe restricted key": "rk_live_51H8xKqL2mVt4Rp8Nb3Wz6Yh",
  "Stripe publishable key": "pk_live_51H8xKqL2mVt4Rp8Nb3Wz6Yh",
  "Stripe webhook secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  "OpenAI project key": "sk-proj-Xy9Kq2Lm7Vt4Rp8Nb3Wz6Yh1Cf5Jd0SaE3Gu8Ti",
  "Anthropic API key": "sk-ant-api03-Xy9Kq2Lm7Vt4Rp8Nb3Wz6Yh1Cf5Jd0Sa-E3Gu8TiAA",
  "Slack bot token": "xoxb-2400325148-2413371237157-Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1",
  "Slack user token": "xoxp-2400325148-2413371237157-2426153291-5b3f0a9c8e7d",
  "Slack app token": "xapp-1-A02ABCDEF12-2413371237157-abcdef0123456789",
  "Slack webhook": "https://hooks.slack.com/services/T02ABCDEF/B02GHIJKL/Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1",
  "AWS access key ID": "AKIAIOSFODNN7EXAMPLE",
  "AWS temporary key ID": "ASIAY34FZKBOKMUTVV7A",
  "AWS secret access key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "Google API key": "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
  "Google OAuth access token": "ya29.a0AfH6SMBx9Kq2Lm7Vt4Rp8Nb3Wz6Yh1Cf5Jd0SaE3Gu8Ti",
  "npm token": "npm_Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1Jf5Ds0Ae3Gu8",
  "PyPI token": "pypi-AgEIcHlwaS5vcmcCJGQ4ZTQ2ZjBhLTk5NmEtNDgxNS1hOGE5LWYxNGI0Njc5Y2JlZQ",
  "Hugging Face token": "hf_Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1Jf5Ds0Ae3Gu",
  "SendGrid key": "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",
  "Shopify access token": "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",
  "DigitalOcean token": "dop_v1_" + "a1b2c3d4e5f6".repeat(5) + "a1b2",
  "Twilio API key": "SK2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c",
  "Mailgun key": "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
  "Discord bot token": "MTA1NjcyNDQ0NTc4NjM4MjM0NQ.GkLm2X.Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1Jf5Ds0Ae3Gu8Ti",
  "Telegram bot token": "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
  "Atlassian API token": "ATATT3xFfGF0Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1Jf5Ds0Ae3Gu8TiXy",
  "Firebase server key": "AAAAx9Kq2Lm:APA91bHx9Kq2Lm7Vt4Rp8Nb3Wz6Yh1Cf5Jd0SaE3Gu8TiQw",
  "generic random API key": "Zx9KqP2mW7vR4tY8uN3bL6cJ1hG5fD0sA",
  JWT: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFubiJ9." +
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  "Bearer opaque token": "Bearer 8f7a6b5c-opaque-Q9x2-token",
  "Basic credentials": "Basic YWxhZGRpbjpvcGVuc2VzYW1l",
  "RSA private key":
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi\n-----END RSA PRIVATE KEY-----",
  "OpenSSH private key":
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----",
  "database URL password": "postgres://app:Pr0d-Db_Passw0rd@db.internal:5432/app",
  "Azure storage connection string":
    "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Kq9Lm2Xv7Rt4Np8Bw3Yz6Hc1==;",
  "form-encoded password": "user=ann&password=Hunter2Horse&remember=1",
};

/** The part of a secret that must not survive (the prefix of a shape may be generic). */
function secretCores(secret: string): string[] {
  return secret.match(/[A-Za-z0-9]{8,}/g)?.filter((core) =>
    ![
      "BEGIN",
      "PRIVATE",
      "DefaultEndpointsProtocol",
      "AccountName",
      "AccountKey",
      "internal",
      "remember",
    ]
      .some((word) => core.includes(word)) && !/^[a-z]+$/.test(core)
  ) ?? [];
}

const PATH_SAFE = /^[A-Za-z0-9._~-]+$/;
const HEADER_SAFE = /^[\x20-\x7e]+$/;

async function documentFor(secret: string): Promise<string[]> {
  const app = new Hono()
    .post("/items/:id", async (c) => {
      const body = await c.req.json();
      return c.json({
        echoed: body.note,
        message: `your key is ${secret}`,
        data: { token: secret },
      });
    })
    .get("/text", (c) => {
      if (HEADER_SAFE.test(secret)) c.header("location", `/next?from=${secret}`);
      return c.text(`value: ${secret}\n`);
    });
  const client = new AgentTestClient(app, {
    headers: HEADER_SAFE.test(secret) ? { "x-trace": secret, "x-admin-key": secret } : {},
  });
  const recorder = new WorkflowRecorder();
  await recorder.run(async () => {
    const id = PATH_SAFE.test(secret) ? secret : "item-1";
    await client.post(`/items/${id}`, {
      query: { q: secret, auth: secret },
      json: {
        note: secret,
        nested: { list: [secret, `prefix ${secret} suffix`] },
        admin_key: secret,
        pwd: secret,
        access_key: secret,
      },
    });
    await stepBoundary(`domain ${secret}`, `label ${secret}`, () => undefined);
    await client.get("/text");
  });
  const workflow = compileWorkflow({
    name: `Use ${secret}`,
    intent: `Intent ${secret}`,
    requires: [`requires ${secret}`],
    source: { file: "./corpus_test.ts", test: "corpus", index: 0 },
    steps: recorder.steps(),
  });
  const doc = buildDocument([workflow]);
  return [renderDocument(doc), serializeDocument(doc)];
}

Deno.test("no secret of the corpus (at least 40 forms) reaches the document, in any position", async (t) => {
  assert.ok(Object.keys(VALUE_SHAPED).length >= 40, "the corpus has at least 40 forms");
  for (const [kind, secret] of Object.entries(VALUE_SHAPED)) {
    await t.step(kind, async () => {
      const cores = secretCores(secret);
      assert.ok(cores.length > 0, `${kind} has a distinctive part to look for`);
      for (const output of await documentFor(secret)) {
        for (const core of cores) {
          assert.equal(output.includes(core), false, `${kind}: "${core}" leaked`);
        }
        assert.match(output, /\[REDACTED\]/);
      }
    });
  }
});

Deno.test("secrets known only by their field's name are redacted in headers, query and bodies", async () => {
  const plain = "correct horse battery staple";
  const app = new Hono().post("/login", (c) => c.json({ session_id: plain, user: "ann" }));
  const client = new AgentTestClient(app, { headers: { "x-admin-key": plain, cookie: plain } });
  const recorder = new WorkflowRecorder();
  await recorder.run(() =>
    client.post("/login", {
      query: { auth: plain, api_token: plain },
      json: {
        user: "ann",
        pwd: plain,
        admin_key: plain,
        access_key: plain,
        credentials: { u: plain },
      },
    })
  );
  const workflow = compileWorkflow({
    name: "Log in",
    intent: "Get a session.",
    source: { file: "./login_test.ts", test: "log in", index: 0 },
    steps: recorder.steps(),
  });
  const doc = buildDocument([workflow]);
  for (const output of [renderDocument(doc), serializeDocument(doc)]) {
    assert.equal(output.includes(plain), false);
    assert.match(output, /"user": "ann"/, "other fields stay readable");
  }
});

Deno.test("project extensions: extra key words and patterns redact, allow-listed fields stay", () => {
  const redactor = new Redactor({
    keys: ["pin"],
    patterns: ["acme_[a-z0-9]{12}"],
    allow: ["author", "auth.backend"],
  });
  assert.deepEqual(
    redactor.value({
      pin_code: 1234,
      ref: "acme_0123456789ab",
      author: "ann",
      auth: { backend: "anonymous", enabled: true, secret: "s" },
      other: { backend: "x" },
    }),
    {
      pin_code: "[REDACTED]",
      ref: "[REDACTED]",
      author: "ann",
      auth: { backend: "anonymous", enabled: true, secret: "[REDACTED]" },
      other: { backend: "x" },
    },
  );
  assert.equal(
    redactor.string("author ghp_R2d9Kx7LmQ4vT8nB3wZ6yH1cF5jP0sA9eU2i", true),
    "author [REDACTED]",
    "an allow-listed field still loses known credential shapes",
  );
  assert.match(redactor.describe(), /`pin`/);
  assert.match(redactor.describe(), /one project pattern/);
  assert.match(redactor.describe(), /`auth\.backend`/);
});

Deno.test("identifiers are not mistaken for secrets: cursors, hashes, UUIDs, versions, names", () => {
  const redactor = new Redactor();
  for (
    const value of [
      "MjAyNi0xMS0yMVQwOTowMDowMC4wMDBafDM", // base64 of a timestamp cursor
      "sha256:7c91694319b1",
      "3f786850e387550fdab836ed7e6dc881de23001b", // a commit SHA
      "9b2f6a1e-4c3d-4e5f-8a7b-1c2d3e4f5a6b",
      "2026.11.21",
      "requests-toolbelt",
      "/api/v1/approval-requests/apr_0001",
      "Decide whether to add the dependency",
      "aud_0000000000000001",
    ]
  ) {
    assert.equal(redactor.string(value), value, value);
  }
  assert.equal(redactor.string("www-authenticate"), "www-authenticate");
  assert.deepEqual(
    redactor.entries({ "www-authenticate": 'Gateway realm="policyd"' }),
    { "www-authenticate": 'Gateway realm="policyd"' },
  );
});
