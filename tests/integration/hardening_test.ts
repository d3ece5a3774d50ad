/**
 * Regression tests of the security probe's findings (issue 16), each over a
 * real server on loopback: one test per row of the probe's table.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { auditCount, queryDb } from "../helpers/db.ts";
import { call, mergedPullRequest, signedDelivery } from "../helpers/approvals.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { type TestServer, withTestServer } from "../helpers/server.ts";

async function expectProblem(res: Response, status: number) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}`);
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  const body = await res.json();
  assert.equal(body.status, status);
  return body;
}

const withServer = withTestServer;

/** Polls an approval request (as an operator) until its proposer outcome is recorded. */
async function waitForProposal(base: string, id: number): Promise<Record<string, string>> {
  const headers = { "x-forwarded-user": "alice", "x-forwarded-groups": "policy-admins" };
  for (let i = 0; i < 400; i++) {
    const res = await call(base, "GET", `/api/v1/approval-requests/${id}`, { headers });
    if (res.status === 200 && res.body.proposal_status !== null) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`approval request ${id} got no proposal outcome`);
}

const registryNames = async (server: TestServer) =>
  (await call(server.url, "GET", "/api/v1/registry", {
    headers: { "x-forwarded-user": "alice", "x-forwarded-groups": "policy-admins" },
  })).body.packages.map((p: { name: string }) => p.name);

Deno.test("org mode: an approval request is queued, never applied by local_file, also an operator's", async () => {
  await withServer({ env: { AUTH_ENABLED: "true", AUTH_BACKEND: "header" } }, async (server) => {
    const mallory = { "x-forwarded-user": "mallory", "x-forwarded-groups": "devs" };
    const before = await call(server.url, "GET", "/api/v1/evaluate?package=left-pad", {
      headers: mallory,
    });
    assert.equal(before.body.registry_status, null);
    const asked = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: "left-pad", rationale: "I want it" },
      headers: mallory,
    });
    assert.equal(asked.status, 202);
    const outcome = await waitForProposal(server.url, asked.body.id);
    assert.equal(outcome.proposal_status, "queued", outcome.proposal_detail);
    assert.ok(!(await registryNames(server)).includes("left-pad"), "the registry is unchanged");
    assert.doesNotMatch(await Deno.readTextFile(server.registryPath), /left-pad/);
    const after = await call(server.url, "GET", "/api/v1/evaluate?package=left-pad", {
      headers: mallory,
    });
    assert.equal(after.body.verdict, before.body.verdict, "the verdict did not change");
    const pending = await call(server.url, "GET", "/api/v1/registry/pending", { headers: mallory });
    assert.equal(
      pending.body.items.find((i: { package: string }) => i.package === "left-pad")?.reason,
      "requested",
      "the request waits in the review queue",
    );

    // An operator's own request is a request too (SPEC §17.1); the operator's approval applies.
    const alice = { "x-forwarded-user": "alice", "x-forwarded-groups": "policy-admins" };
    const operator = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: "right-pad", rationale: "operator adds it" },
      headers: alice,
    });
    assert.equal((await waitForProposal(server.url, operator.body.id)).proposal_status, "queued");
    assert.ok(!(await registryNames(server)).includes("right-pad"));
    const approved = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "right-pad", status: "approved", reason: "reviewed" } },
      headers: alice,
    });
    assert.equal(approved.body.result.status, "applied", approved.body.result.detail);
    assert.ok((await registryNames(server)).includes("right-pad"));
  });
});

Deno.test("org mode: a non-operator's MCP request_approval is queued too", async () => {
  await withServer({ env: { AUTH_ENABLED: "true", AUTH_BACKEND: "header" } }, async (server) => {
    const client = new Client({ name: "hardening-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { "x-forwarded-user": "mallory", "x-forwarded-groups": "devs" } },
      }),
    );
    try {
      const result = await client.callTool({
        name: "request_approval",
        arguments: { package: "left-pad", rationale: "I want it" },
      });
      const id = (result.structuredContent as { id: number }).id;
      assert.equal((await waitForProposal(server.url, id)).proposal_status, "queued");
      assert.ok(!(await registryNames(server)).includes("left-pad"));
    } finally {
      await client.close();
    }
  });
});

Deno.test("org mode: the github and log_only proposers still run for everyone (review is their gate)", async () => {
  await withServer(
    { env: { AUTH_ENABLED: "true", AUTH_BACKEND: "header", REGISTRY_PROPOSER: "log_only" } },
    async (server) => {
      const asked = await call(server.url, "POST", "/api/v1/approval-requests", {
        json: { package: "left-pad", rationale: "I want it" },
        headers: { "x-forwarded-user": "mallory", "x-forwarded-groups": "devs" },
      });
      assert.equal((await waitForProposal(server.url, asked.body.id)).proposal_status, "logged");
    },
  );
});

Deno.test("cross-site requests: a foreign Origin is 403, a non-JSON body 415; same-origin JSON works", async (t) => {
  await withServer({}, async (server) => {
    const api = `${server.url}/api/v1`;
    const rule = JSON.stringify({ rule: { name: "evil-pkg", status: "approved" } });
    await t.step("foreign Origin → 403 and nothing applied", async () => {
      const res = await fetch(`${api}/registry/proposals`, {
        method: "POST",
        headers: { origin: "http://evil.example", "content-type": "application/json" },
        body: rule,
      });
      await expectProblem(res, 403);
      assert.ok(!(await registryNames(server)).includes("evil-pkg"));
    });
    await t.step("text/plain and form bodies → 415", async () => {
      for (
        const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
      ) {
        const res = await fetch(`${api}/registry/proposals`, {
          method: "POST",
          headers: { "content-type": type },
          body: rule,
        });
        await expectProblem(res, 415);
        const approval = await fetch(`${api}/approval-requests`, {
          method: "POST",
          headers: { "content-type": type },
          body: "package=attrs&rationale=x",
        });
        await expectProblem(approval, 415);
      }
      assert.ok(!(await registryNames(server)).includes("evil-pkg"));
    });
    await t.step("a body without Content-Type → 415; reload without a body passes", async () => {
      const res = await fetch(`${api}/evaluate/batch`, {
        method: "POST",
        body: new Blob(['{"packages":[{"package":"requests"}]}']),
      });
      await expectProblem(res, 415);
      const reload = await fetch(`${api}/registry/reload`, { method: "POST" });
      assert.equal(reload.status, 200);
      await reload.body?.cancel();
    });
    await t.step("the server's own origin with JSON (the dashboards) → 200", async () => {
      const res = await fetch(`${api}/registry/proposals`, {
        method: "POST",
        headers: { origin: new URL(server.url).origin, "content-type": "application/json" },
        body: JSON.stringify({ rule: { name: "six", status: "approved" } }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
    });
    await t.step("parse-yaml takes its YAML types and JSON", async () => {
      for (const type of ["text/yaml", "application/yaml", "application/x-yaml"]) {
        const res = await fetch(`${api}/registry/parse-yaml`, {
          method: "POST",
          headers: { "content-type": type },
          body: "packages: []\n",
        });
        assert.equal(res.status, 200, type);
        await res.body?.cancel();
      }
    });
  });
});

Deno.test("ALLOWED_ORIGINS admits a proxy's public origin", async () => {
  await withServer({ env: { ALLOWED_ORIGINS: "https://policy.example.com" } }, async (server) => {
    const res = await fetch(`${server.url}/api/v1/registry/reload`, {
      method: "POST",
      headers: { origin: "https://policy.example.com" },
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  });
});

Deno.test("a batch of 64 packages answers within the single-evaluation bound while OSV hangs", async () => {
  const upstream = await startFakeUpstream();
  const timeout = 1000;
  const names = upstream.addSyntheticPackages(64, { prefix: "hangs" });
  upstream.osv.mode = "hang";
  try {
    await withServer({
      env: {
        OSV_API_URL: upstream.url,
        PYPI_URL: upstream.url,
        LOOKUP_TIMEOUT_MS: String(timeout),
      },
    }, async (server) => {
      const started = performance.now();
      const res = await call(server.url, "POST", "/api/v1/evaluate/batch", {
        json: { packages: names.map((name) => ({ package: name })) },
      });
      const elapsed = performance.now() - started;
      assert.equal(res.status, 200);
      assert.equal(res.body.results.length, 64);
      for (const result of res.body.results) {
        assert.match(result.reason, /vulnerability data was unavailable/, result.package);
      }
      assert.equal(auditCount(server.dbPath), 64, "one audit row per package");
      // The behaviour specified: under 2 × LOOKUP_TIMEOUT_MS of lookups, with room for the rest.
      assert.ok(elapsed < 3 * timeout, `the batch took ${Math.round(elapsed)} ms`);
    });
  } finally {
    await upstream.close();
  }
});

Deno.test("credentials in upstream URLs never reach the logs or the answers", async () => {
  const upstream = await startFakeUpstream();
  upstream.osv.mode = "error500";
  upstream.pypi.mode = "error500";
  const lines: string[] = [];
  const withCredentials = upstream.url.replace("http://", "http://probe-user:s3cr3t-pass@");
  try {
    await withServer({
      env: { OSV_API_URL: withCredentials, PYPI_URL: withCredentials },
      logLines: lines,
    }, async (server) => {
      const res = await fetch(`${server.url}/api/v1/evaluate?package=black`);
      const text = await res.text();
      assert.equal(res.status, 200);
      assert.doesNotMatch(text, /s3cr3t-pass/);
      const health = await (await fetch(`${server.url}/api/v1/health`)).text();
      assert.doesNotMatch(health, /s3cr3t-pass/);
    });
    assert.ok(lines.length > 0);
    assert.equal(lines.filter((l) => l.includes("s3cr3t-pass")).length, 0, "no log line leaks");
  } finally {
    await upstream.close();
  }
});

Deno.test("parse-yaml: over the concurrency cap → 429, over the time budget → 422, evaluations keep answering", async (t) => {
  const rules = Array.from({ length: 8_000 }, (_, i) => `  - {name: pkg-${i}, status: approved}`);
  const big = `packages:\n${rules.join("\n")}\n`;
  await t.step("concurrency cap", async () => {
    const env = { PARSE_YAML_CONCURRENCY: "1", PARSE_YAML_TIMEOUT_MS: "60000" };
    await withServer({ env }, async (server) => {
      const post = () =>
        fetch(`${server.url}/api/v1/registry/parse-yaml`, {
          method: "POST",
          headers: { "content-type": "text/yaml" },
          body: big,
        });
      const slow = post();
      // An evaluation answers while the document is parsed off the main thread.
      let parsedFirst = false;
      slow.then(() => (parsedFirst = true));
      await new Promise((r) => setTimeout(r, 50));
      const busy = await post();
      const evaluation = await fetch(`${server.url}/api/v1/evaluate?package=requests`);
      assert.equal(evaluation.status, 200);
      await evaluation.body?.cancel();
      assert.equal(parsedFirst, false, "the evaluation did not wait for the parse");
      const problem = await expectProblem(busy, 429);
      assert.match(problem.detail, /parsing/);
      assert.equal(busy.headers.get("retry-after"), "1");
      const first = await slow;
      assert.equal(first.status, 200, await first.clone().text());
      await first.body?.cancel();
    });
  });
  await t.step("time budget", async () => {
    await withServer({ env: { PARSE_YAML_TIMEOUT_MS: "1" } }, async (server) => {
      const res = await fetch(`${server.url}/api/v1/registry/parse-yaml`, {
        method: "POST",
        headers: { "content-type": "text/yaml" },
        body: big,
      });
      const problem = await expectProblem(res, 422);
      assert.equal(problem.ok, false);
      assert.match(problem.errors[0].message, /exceeded 1 ms/);
    });
  });
});

Deno.test("non-ASCII package names are a 400 and leave no audit row", async (t) => {
  await withServer({}, async (server) => {
    const api = `${server.url}/api/v1`;
    for (
      const name of [
        "pycr\u0443pto",
        "\uff52\uff45\uff51\uff55\uff45\uff53\uff54\uff53",
        "r\u00e9quests==1.0",
      ]
    ) {
      await t.step(name, async () => {
        await expectProblem(
          await fetch(`${api}/evaluate?package=${encodeURIComponent(name)}`),
          400,
        );
        const batch = await fetch(`${api}/evaluate/batch`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ packages: [{ package: "requests" }, { package: name }] }),
        });
        await expectProblem(batch, 400);
        const approval = await fetch(`${api}/approval-requests`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ package: name, rationale: "x" }),
        });
        await expectProblem(approval, 400);
      });
    }
    assert.equal(auditCount(server.dbPath), 0);
  });
});

async function rawRequest(url: string, text: string): Promise<Deno.TcpConn> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  await conn.write(new TextEncoder().encode(text));
  return conn;
}

async function readAll(conn: Deno.TcpConn): Promise<string> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(4096);
  while (true) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
    if (new TextDecoder().decode(chunks.at(-1)).includes("}")) break;
  }
  return chunks.map((c) => new TextDecoder().decode(c)).join("");
}

Deno.test("a client that aborts mid-body is an info-level client event, not a 500", async () => {
  const lines: string[] = [];
  await withServer({ logLines: lines }, async (server) => {
    const conn = await rawRequest(
      server.url,
      "POST /api/v1/evaluate/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        'Content-Length: 100\r\n\r\n{"packages":',
    );
    await new Promise((r) => setTimeout(r, 100));
    conn.close();
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.includes("client aborted")) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const parsed = lines.map((l) => JSON.parse(l));
    assert.ok(parsed.some((l) => l.msg === "client aborted the request" && l.level === "info"));
    assert.equal(parsed.filter((l) => l.level === "error").length, 0, "no error-level line");
    assert.equal(parsed.filter((l) => l.status === 500).length, 0, "no 500 in the access log");
  });
});

Deno.test("a body that does not arrive within REQUEST_READ_TIMEOUT_MS gets 408", async () => {
  await withServer({ env: { REQUEST_READ_TIMEOUT_MS: "200" } }, async (server) => {
    const conn = await rawRequest(
      server.url,
      "POST /api/v1/evaluate/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        'Content-Length: 100\r\n\r\n{"packages":',
    );
    try {
      const answer = await readAll(conn);
      assert.match(answer, /^HTTP\/1\.1 408/);
      assert.match(answer, /request-timeout/);
    } finally {
      conn.close();
    }
  });
});

Deno.test("webhook: 401 carries WWW-Authenticate; a replayed delivery answers duplicate and pulls nothing", async () => {
  const secret = "hardening-webhook-secret";
  const lines: string[] = [];
  await withServer(
    { env: { REGISTRY_WEBHOOK_SECRET: secret, REGISTRY_PROPOSER: "log_only" }, logLines: lines },
    async (server) => {
      const url = `${server.url}/api/v1/registry/webhook`;
      const unsigned = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-github-event": "ping" },
        body: "{}",
      });
      assert.match(unsigned.headers.get("www-authenticate") ?? "", /X-Hub-Signature-256/);
      await expectProblem(unsigned, 401);

      const delivery = await signedDelivery(secret, "pull_request", mergedPullRequest("main"));
      const send = () =>
        fetch(url, { method: "POST", headers: delivery.headers, body: delivery.body });
      const first = await send();
      assert.equal(first.status, 200, await first.clone().text());
      assert.ok((await first.json()).reload);
      const replay = await send();
      assert.equal(replay.status, 200);
      assert.deepEqual(await replay.json(), {
        duplicate: true,
        delivery: delivery.headers["x-github-delivery"],
      });
      const reloads = lines.filter((l) => l.includes("merge webhook reloaded the registry"));
      assert.equal(reloads.length, 1, "the replay pulled and reloaded nothing");
    },
  );
});

Deno.test("RATE_LIMIT_PER_MINUTE: over the limit → 429 problem+json with Retry-After; /health stays open", async () => {
  await withServer({ env: { RATE_LIMIT_PER_MINUTE: "5" } }, async (server) => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/v1/registry`);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    const limited = await fetch(`${server.url}/api/v1/evaluate?package=requests`);
    const retry = Number(limited.headers.get("retry-after"));
    await expectProblem(limited, 429);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal(auditCount(server.dbPath), 0, "a limited evaluation is not audited");
    const health = await fetch(`${server.url}/api/v1/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
  });
});

Deno.test("rate limiting counts identities apart in org mode", async () => {
  await withServer(
    { env: { RATE_LIMIT_PER_MINUTE: "2", AUTH_ENABLED: "true", AUTH_BACKEND: "header" } },
    async (server) => {
      const as = (user: string) => ({ headers: { "x-forwarded-user": user } });
      const statuses = [];
      for (const user of ["ann", "ann", "ann", "bob"]) {
        const res = await fetch(`${server.url}/api/v1/registry`, as(user));
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.deepEqual(statuses, [200, 200, 429, 200]);
    },
  );
});

Deno.test("project names: `*` and bad names are refused on writes and evaluations; `*` reads all", async (t) => {
  await withServer({ env: { REGISTRY_PROPOSER: "log_only" } }, async (server) => {
    const api = `${server.url}/api/v1`;
    await t.step("evaluation with project=*", async () => {
      await expectProblem(await fetch(`${api}/evaluate?package=requests&project=*`), 400);
    });
    await t.step("approval request under X-Policy-Project: *", async () => {
      const res = await fetch(`${api}/approval-requests`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-policy-project": "*" },
        body: JSON.stringify({ package: "attrs", rationale: "x" }),
      });
      await expectProblem(res, 400);
    });
    await t.step("a proposal whose context names project *", async () => {
      const res = await fetch(`${api}/registry/proposals`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          rule: { name: "six", status: "approved" },
          context: { project: "*" },
        }),
      });
      await expectProblem(res, 400);
    });
    await t.step("too long, or with wildcards and spaces", async () => {
      for (const project of ["p".repeat(201), "web*", "a b", "we?b"]) {
        await expectProblem(
          await fetch(`${api}/evaluate?package=requests&project=${encodeURIComponent(project)}`),
          400,
        );
      }
    });
    await t.step("an over-long X-Policy-Project header is refused, not cut", async () => {
      const res = await fetch(`${api}/evaluate?package=requests`, {
        headers: { "x-policy-project": "p".repeat(250) },
      });
      await expectProblem(res, 400);
    });
    await t.step("reads across projects take *", async () => {
      const res = await fetch(`${api}/approval-requests?project=*`);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    });
    assert.equal(auditCount(server.dbPath), 0);
    assert.equal(queryDb(server.dbPath, "SELECT COUNT(*) AS n FROM approval_requests")[0].n, 0);
  });
});
