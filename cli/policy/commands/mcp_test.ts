/**
 * `policy mcp` spawned the way an agent runs it, driven by the SDK's own
 * stdio client, forwarding to a real policyd on loopback.
 */
import assert from "node:assert/strict";
import { MCP_TOOLS } from "../../../src/api/mcp.ts";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { deadServerUrl, exec, POLICY_CMD, writePolicyToml } from "../_testing.ts";
import { startFakeUpstream } from "../../../tests/helpers/fake_upstream.ts";
import { queryDb } from "../../../tests/helpers/db.ts";
import { startTestServer } from "../../../tests/helpers/server.ts";

async function stdioClient(cwd: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "policy-mcp-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: POLICY_CMD[0],
      args: [...POLICY_CMD.slice(1), "mcp"],
      cwd,
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? cwd, ...env },
      stderr: "pipe",
    }),
  );
  return client;
}

Deno.test("policy mcp over stdio: check_package pycrypto is DENIED with the replacement cryptography", async () => {
  const server = await startTestServer();
  const dir = await Deno.makeTempDir({ prefix: "policy-mcp-" });
  await writePolicyToml(dir, server.url);
  const client = await stdioClient(dir, { POLICY_AGENT_MODEL: "stdio-agent" });
  try {
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name), MCP_TOOLS.map((tool) => tool.name));
    const result = await client.callTool({
      name: "check_package",
      arguments: { package: "pycrypto" },
    });
    const out = result.structuredContent as Record<string, unknown>;
    assert.equal(out.verdict, "DENIED");
    assert.equal(out.replacement, "cryptography");
    assert.equal(out.category, "DENIAL_BANNED");
    const audited = queryDb(
      server.dbPath,
      "SELECT source, project, agent_model FROM audit_log WHERE id = ?",
      out.audit_id as number,
    ).map((row) => ({ ...row }));
    assert.deepEqual(audited, [{ source: "mcp", project: "demo", agent_model: "stdio-agent" }]);
  } finally {
    await client.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("policy mcp over stdio: an unreachable server is a tool error saying nothing was checked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policy-mcp-" });
  const url = deadServerUrl();
  await writePolicyToml(dir, url);
  const client = await stdioClient(dir);
  try {
    const result = await client.callTool({
      name: "check_package",
      arguments: { package: "pycrypto" },
    });
    assert.equal(result.isError, true);
    const text = (result.content as Array<{ text: string }>)[0].text;
    assert.ok(text.includes(url), text);
    assert.match(text, /NOT checked/);
  } finally {
    await client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("policy mcp answers a call still in flight when standard input closes", async () => {
  const upstream = await startFakeUpstream();
  upstream.osv.latencyMs = 400; // the call is still running when stdin closes
  const server = await startTestServer({
    env: { OSV_API_URL: upstream.url, PYPI_URL: upstream.url },
  });
  const dir = await Deno.makeTempDir({ prefix: "policy-mcp-" });
  await writePolicyToml(dir, server.url);
  const messages = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "eof-test", version: "1.0.0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "check_package", arguments: { package: "requests" } },
    },
  ];
  try {
    const ran = await exec(POLICY_CMD[0], [...POLICY_CMD.slice(1), "mcp"], {
      cwd: dir,
      stdin: messages.map((m) => JSON.stringify(m)).join("\n") + "\n",
    });
    assert.equal(ran.code, 0, ran.stderr);
    const replies = ran.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const call = replies.find((r) => r.id === 2);
    assert.ok(call, `no reply to the tool call: ${ran.stdout}`);
    assert.equal(call.result.structuredContent.verdict, "ALLOWED");
  } finally {
    await server.close();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
