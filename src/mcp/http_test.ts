/**
 * `POST /mcp` driven by the SDK's own Streamable HTTP client against a real
 * policyd on loopback: every tool, the audit rows with source `mcp`, bad
 * arguments answered in-band, and the API's authentication in front.
 */
import assert from "node:assert/strict";
import { MCP_TOOLS } from "../api/mcp.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { queryDb } from "../../tests/helpers/db.ts";
import { startTestServer, type TestServer, withTestServer } from "../../tests/helpers/server.ts";
import { waitForProposal } from "../../tests/helpers/approvals.ts";

type Structured = Record<string, unknown>;

/** Rows of the server's database as plain objects. */
function rows(path: string, sql: string, ...params: Array<string | number>) {
  return queryDb(path, sql, ...params).map((row) => ({ ...row }));
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "policyd-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

/** Runs `use` with an MCP client connected to a fresh test server; closes both afterwards. */
function withMcpClient(
  use: (client: Client, server: TestServer) => Promise<void>,
  headers: Record<string, string> = {},
): Promise<void> {
  return withTestServer({}, async (server) => {
    const client = await connect(server.url, headers);
    try {
      await use(client, server);
    } finally {
      await client.close();
    }
  });
}

Deno.test("POST /mcp: check_package answers pycrypto DENIED with the replacement cryptography, audited as mcp", () =>
  withMcpClient(async (client, server) => {
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name), MCP_TOOLS.map((tool) => tool.name));
    for (const tool of tools.tools) assert.match(tool.description ?? "", /^Call this/);
    // No tool approves (SPEC §17.1): the one that writes only files a request for review.
    const writing = tools.tools.filter((t) => t.annotations?.readOnlyHint !== true);
    assert.deepEqual(writing.map((t) => t.name), ["request_approval"]);
    assert.match(writing[0].description ?? "", /queued for human review/);
    const result = await client.callTool({
      name: "check_package",
      arguments: { package: "pycrypto" },
    });
    assert.equal(result.isError, undefined);
    const out = result.structuredContent as Structured;
    assert.equal(out.verdict, "DENIED");
    assert.equal(out.category, "DENIAL_BANNED");
    assert.equal(out.replacement, "cryptography");
    assert.deepEqual(out.cves, []);
    assert.deepEqual(JSON.parse((result.content as Array<{ text: string }>)[0].text), out);
    const audited = rows(
      server.dbPath,
      "SELECT package, verdict, source, project, agent_model FROM audit_log WHERE id = ?",
      out.audit_id as number,
    );
    assert.deepEqual(audited, [{
      package: "pycrypto",
      verdict: "DENIED",
      source: "mcp",
      project: "demo",
      agent_model: "claude-test",
    }]);
  }, { "x-policy-project": "demo", "x-policy-agent-model": "claude-test" }));

Deno.test("POST /mcp: check_packages, request_approval and explain_policy", () =>
  withMcpClient(async (client, server) => {
    const batch = await client.callTool({
      name: "check_packages",
      arguments: { packages: [{ package: "requests" }, { package: "pycrypto", version: "2.6.1" }] },
    });
    const out = batch.structuredContent as { results: Structured[]; denied: number };
    assert.deepEqual(out.results.map((r) => [r.package, r.verdict]), [
      ["requests", "ALLOWED"],
      ["pycrypto", "DENIED"],
    ]);
    assert.equal(out.denied, 1);
    assert.deepEqual(
      rows(server.dbPath, "SELECT DISTINCT source FROM audit_log"),
      [{ source: "mcp" }],
    );

    const approval = await client.callTool({
      name: "request_approval",
      arguments: { package: "left-pad", rationale: "pads strings for the report generator" },
    });
    const receipt = approval.structuredContent as Structured;
    assert.equal(receipt.package, "left-pad");
    assert.equal(receipt.status, "PENDING_REVIEW");
    assert.equal(receipt.message, `filed for review (id ${receipt.id}); not approved yet`);
    const outcome = await waitForProposal(server.url, receipt.id as number);
    assert.equal(outcome.proposal_status, "queued", "local_file waits for an operator");
    assert.doesNotMatch(await Deno.readTextFile(server.registryPath), /left-pad/);
    assert.deepEqual(
      rows(
        server.dbPath,
        "SELECT package, rationale FROM approval_requests WHERE id = ?",
        receipt.id as number,
      ),
      [{ package: "left-pad", rationale: "pads strings for the report generator" }],
    );

    const explained = await client.callTool({
      name: "explain_policy",
      arguments: { package: "PyCrypto" },
    });
    const policy = explained.structuredContent as {
      package: string;
      rule: Structured;
      policies: Structured;
      summary: string;
    };
    assert.equal(policy.package, "pycrypto");
    assert.equal(policy.rule.status, "banned");
    assert.equal(policy.rule.replacement, "cryptography");
    assert.equal(typeof policy.policies.cve_threshold, "number");
    assert.match(
      policy.summary,
      /pycrypto is banned in the registry: DENIED.*Use cryptography instead/,
    );
  }));

Deno.test("POST /mcp: invalid arguments are tool errors the agent can read, never a crash", () =>
  withMcpClient(async (client, server) => {
    const badName = await client.callTool({
      name: "check_package",
      arguments: { package: "not a name!" },
    });
    assert.equal(badName.isError, true);
    assert.match((badName.content as Array<{ text: string }>)[0].text, /package/);
    const missing = await client.callTool({
      name: "request_approval",
      arguments: { package: "x" },
    });
    assert.equal(missing.isError, true);
    assert.match((missing.content as Array<{ text: string }>)[0].text, /rationale/);
    const garbage = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: "{not json",
    });
    assert.ok(garbage.status >= 400 && garbage.status < 500, `status ${garbage.status}`);
    await garbage.body?.cancel();
  }));

Deno.test("POST /mcp needs the same authentication as the API; the identity is the audited requester", async () => {
  const server = await startTestServer({
    env: { AUTH_ENABLED: "true", AUTH_BACKEND: "header", TRUSTED_PROXIES: "127.0.0.1/32" },
  });
  try {
    const anonymous = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("content-type"), "application/problem+json");
    await anonymous.body?.cancel();
    const client = await connect(server.url, { "x-forwarded-user": "alice" });
    try {
      const result = await client.callTool({
        name: "check_package",
        arguments: { package: "pycrypto" },
      });
      const { audit_id } = result.structuredContent as { audit_id: number };
      assert.deepEqual(
        rows(server.dbPath, "SELECT requester, source FROM audit_log WHERE id = ?", audit_id),
        [{ requester: "alice", source: "mcp" }],
      );
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("POST /mcp takes the package specs the HTTP API takes: one length rule", () =>
  withMcpClient(async (client, server) => {
    const long = "a".repeat(250); // over MCP's old 200, within the API's 300
    const http = await fetch(`${server.url}/api/v1/evaluate?package=${long}`);
    assert.equal(http.status, 200);
    await http.body?.cancel();
    const viaMcp = await client.callTool({ name: "check_package", arguments: { package: long } });
    assert.equal(viaMcp.isError, undefined, JSON.stringify(viaMcp.content));
    assert.equal((viaMcp.structuredContent as Structured).package, long);

    const tooLong = "a".repeat(301);
    const refused = await fetch(`${server.url}/api/v1/evaluate?package=${tooLong}`);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /package spec is too long/);
    const refusedMcp = await client.callTool({
      name: "check_package",
      arguments: { package: tooLong },
    });
    assert.equal(refusedMcp.isError, true);
    assert.match(
      (refusedMcp.content as Array<{ text: string }>)[0].text,
      /package spec is too long/,
    );
  }));
