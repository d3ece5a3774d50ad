import assert from "node:assert/strict";
import { ApiClient, clientFromConfig, MAX_BATCH } from "./api_client.ts";
import { ClientError, ServerError, ServerUnreachable } from "./exit_codes.ts";
import { resolveConfig } from "./config.ts";
import { EXIT, exitCodeFor } from "./exit_codes.ts";
import { defaultTransport } from "./transport.ts";

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Headers;
  body: unknown;
}

/** A loopback fake of the policyd API that records requests. */
function fakeServer(handler: (seen: Seen) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    const entry = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: text ? JSON.parse(text) : null,
    };
    seen.push(entry);
    return await handler(entry);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    close: () => server.shutdown(),
  };
}

function evaluation(pkg: string, verdict = "ALLOWED") {
  return { package: pkg, version: null, verdict, reason: "ok", cves: [], audit_id: 1 };
}

function options(serverUrl: string, failOpen = true) {
  return { serverUrl, project: "shop", failOpen, source: "check" as const, timeoutMs: 2000 };
}

/** A URL on which nothing listens. */
function deadUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

Deno.test("evaluate() sends the package, version and context headers", async () => {
  const srv = fakeServer(() => Response.json(evaluation("requests")));
  try {
    const client = new ApiClient({
      ...options(srv.url),
      agentModel: "m",
      agentVersion: "1",
      source: "hook",
    });
    const result = await client.evaluate("requests", "2.31.0");
    assert.equal(result.verdict, "ALLOWED");
    const req = srv.seen[0];
    assert.equal(req.path, "/api/v1/evaluate");
    assert.deepEqual(req.query, { package: "requests", version: "2.31.0" });
    assert.equal(req.headers.get("x-policy-project"), "shop");
    assert.equal(req.headers.get("x-policy-source"), "hook");
    assert.equal(req.headers.get("x-policy-agent-model"), "m");
    assert.equal(req.headers.get("x-policy-agent-version"), "1");
    assert.equal(req.headers.get("authorization"), null);
  } finally {
    await srv.close();
  }
});

Deno.test("evaluateBatch() posts {packages} in chunks of 500 and keeps the order", async () => {
  const srv = fakeServer(({ body }) => {
    const { packages } = body as { packages: Array<{ package: string }> };
    return Response.json({ results: packages.map((p) => evaluation(p.package)) });
  });
  try {
    const client = new ApiClient(options(srv.url));
    const queries = Array.from(
      { length: MAX_BATCH + 3 },
      (_, i) => ({ package: `p${i}`, version: i % 2 ? "1.0" : null }),
    );
    const results = await client.evaluateBatch(queries);
    assert.deepEqual(results.map((r) => r.package), queries.map((q) => q.package));
    assert.equal(srv.seen.length, 2);
    assert.deepEqual((srv.seen[0].body as { packages: unknown[] }).packages.slice(0, 2), [
      { package: "p0" },
      { package: "p1", version: "1.0" },
    ]);
  } finally {
    await srv.close();
  }
});

Deno.test("a connection failure under fail_open gives a synthetic ALLOWED with transport_error", async () => {
  const client = new ApiClient(options(deadUrl(), true));
  const one = await client.evaluate("requests");
  assert.equal(one.verdict, "ALLOWED");
  assert.equal(one.transport_error, true);
  const batch = await client.evaluateBatch([{ package: "a" }, { package: "b", version: "1" }]);
  assert.deepEqual(batch.map((r) => [r.package, r.version, r.transport_error]), [
    ["a", null, true],
    ["b", "1", true],
  ]);
});

Deno.test("a connection failure without fail_open raises ServerUnreachable naming the URL", async () => {
  const url = deadUrl();
  const client = new ApiClient(options(url, false));
  await assert.rejects(() => client.evaluate("requests"), (e: unknown) => {
    assert.ok(e instanceof ServerUnreachable);
    assert.ok(e.message.includes(url));
    return true;
  });
  // non-evaluation calls never fail open
  await assert.rejects(() => new ApiClient(options(url, true)).health(), ServerUnreachable);
});

Deno.test("4xx/5xx raise ServerError carrying the problem+json detail, even under fail_open", async () => {
  const srv = fakeServer(() =>
    new Response(
      JSON.stringify({
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: "version is not PEP 440",
      }),
      {
        status: 400,
        headers: { "content-type": "application/problem+json" },
      },
    )
  );
  try {
    const client = new ApiClient(options(srv.url, true));
    await assert.rejects(() => client.evaluate("x", "nope"), (e: unknown) => {
      assert.ok(e instanceof ServerError);
      assert.equal(e.status, 400);
      assert.equal(e.detail, "version is not PEP 440");
      return true;
    });
  } finally {
    await srv.close();
  }
});

Deno.test("requestApproval, pendingApprovals, securityReport and health call their routes", async () => {
  const srv = fakeServer(({ path, method }) => {
    if (path === "/api/v1/approval-requests") {
      return method === "POST"
        ? Response.json({ id: 7, package: "left-pad", status: "PENDING_REVIEW" }, { status: 202 })
        : Response.json({ items: [{ package: "left-pad", count: 1 }] });
    }
    if (path === "/api/v1/reports/security") {
      return Response.json({ total_denials: 0, top_packages: [] });
    }
    return Response.json({ status: "ok", version: "0.1.0" });
  });
  try {
    const client = new ApiClient(options(srv.url));
    const receipt = await client.requestApproval({ package: "left-pad", rationale: "needed" });
    assert.equal(receipt.id, 7);
    // A server that sends no message still gets the truthful sentence.
    assert.equal(receipt.message, "filed for review (id 7); not approved yet");
    assert.deepEqual(srv.seen[0].body, { package: "left-pad", rationale: "needed" });
    assert.equal((await client.pendingApprovals()).items.length, 1);
    assert.deepEqual(srv.seen[1].query, { project: "shop", status: "PENDING_REVIEW" });
    await client.securityReport("other");
    assert.deepEqual(srv.seen[2].query, { project: "other" });
    assert.equal((await client.health()).status, "ok");
    assert.equal(srv.seen[3].path, "/api/v1/health");
  } finally {
    await srv.close();
  }
});

Deno.test("clientFromConfig() sends the org-mode bearer token and agent identity from the environment", async () => {
  const srv = fakeServer(() => Response.json({ status: "ok" }));
  try {
    const config = await resolveConfig(
      { mode: "org", server_url: srv.url, api_key_env_var: "MY_KEY", project: "p" },
      "/x",
      null,
    );
    const env: Record<string, string> = {
      MY_KEY: "s3cret",
      POLICY_AGENT_MODEL: "claude",
      POLICY_AGENT_VERSION: "4",
    };
    await clientFromConfig(config, { source: "audit", env: (n) => env[n] }).health();
    assert.equal(srv.seen[0].headers.get("authorization"), "Bearer s3cret");
    assert.equal(srv.seen[0].headers.get("x-policy-agent-model"), "claude");
    assert.equal(srv.seen[0].headers.get("x-policy-source"), "audit");
    assert.throws(
      () => clientFromConfig(config, { source: "audit", env: () => undefined }),
      (e: unknown) => {
        assert.ok(e instanceof ClientError);
        assert.equal(e.code, "config");
        assert.match(e.message, /MY_KEY/);
        return true;
      },
    );
  } finally {
    await srv.close();
  }
});

Deno.test("an answer that is not an evaluation is a one-line server_error naming the key, even under fail_open", async () => {
  const srv = fakeServer(({ path }) =>
    path.endsWith("/batch")
      ? Response.json({ results: [{ package: "a" }] })
      : Response.json({ package: "a", verdict: "MAYBE", cves: [] })
  );
  try {
    const client = new ApiClient(options(srv.url, true));
    for (
      const call of [() => client.evaluate("a"), () => client.evaluateBatch([{ package: "a" }])]
    ) {
      await assert.rejects(call, (e: unknown) => {
        assert.ok(e instanceof ClientError && !(e instanceof ServerUnreachable), String(e));
        assert.equal(exitCodeFor(e), EXIT.SERVER_ERROR);
        assert.match(e.message, /^policyd server at http:\/\/127\.0\.0\.1:\d+ sent an invalid /);
        assert.match(e.message, /key "(verdict|results\.0\.verdict)": /);
        assert.ok(!e.message.includes("\n"), e.message);
        return true;
      });
    }
  } finally {
    await srv.close();
  }
});

Deno.test("over the plain HTTP/1.1 transport: the same requests, answers, problem details and failures", async () => {
  const srv = fakeServer(({ path, body }) =>
    path.endsWith("/batch")
      ? Response.json({
        results: (body as { packages: Array<{ package: string }> }).packages.map((p) =>
          evaluation(p.package)
        ),
      })
      : path.endsWith("/health")
      ? Response.json(
        { type: "about:blank", title: "Nope", status: 503, detail: "down\nfor good" },
        { status: 503 },
      )
      : Response.json(evaluation("requests", "DENIED"))
  );
  const transport = defaultTransport(() => undefined);
  try {
    const client = new ApiClient({ ...options(srv.url), token: "t", agentModel: "m", transport });
    assert.equal((await client.evaluate("requests", "2.31.0")).verdict, "DENIED");
    assert.deepEqual(srv.seen[0].query, { package: "requests", version: "2.31.0" });
    assert.equal(srv.seen[0].headers.get("authorization"), "Bearer t");
    assert.equal(srv.seen[0].headers.get("x-policy-agent-model"), "m");
    const batch = await client.evaluateBatch([{ package: "a" }, { package: "b", version: "1" }]);
    assert.deepEqual(batch.map((r) => r.package), ["a", "b"]);
    assert.deepEqual(srv.seen[1].body, {
      packages: [{ package: "a" }, { package: "b", version: "1" }],
    });
    await assert.rejects(() => client.health(), (e: unknown) => {
      assert.ok(e instanceof ServerError);
      assert.equal(e.message, "policyd server error 503: down");
      return true;
    });
  } finally {
    await srv.close();
  }
  const url = deadUrl();
  await assert.rejects(
    () => new ApiClient({ ...options(url, false), transport }).evaluate("x"),
    (e: unknown) => {
      assert.ok(e instanceof ServerUnreachable);
      assert.match(e.message, /is unreachable: .*refused/i);
      return true;
    },
  );
  const open = await new ApiClient({ ...options(url, true), transport }).evaluate("x");
  assert.equal(open.transport_error, true);
});
