/**
 * The MCP endpoint as a workflow: how an agent that speaks the Model Context
 * Protocol over HTTP checks a package (2026-07-28 revision: one stateless
 * POST per call, the protocol version in the request's `_meta`).
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { AgentTestClient, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { QUICKSTART_SERVER } from "../helpers/requires.ts";

const MCP_HEADERS = {
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "x-policy-project": "shop-api",
};

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "coding-agent", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

Deno.test(
  "check a package over MCP",
  workflow(
    "Check a package over MCP",
    "An agent connected to policyd's MCP endpoint calls the check_package tool before adding a dependency and gets the verdict with the replacement.",
    async () => {
      const app = await workflowApp("mcp");
      try {
        const client = new AgentTestClient(app.built.app);
        const res = await client.post("/mcp", {
          headers: { ...MCP_HEADERS, "mcp-name": "check_package" },
          json: {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "check_package", arguments: { package: "pycrypto" }, _meta: ENVELOPE },
          },
        });
        equal(res.status, 200);
        const { result } = res.json<
          { result: { structuredContent: { verdict: string; replacement: string } } }
        >();
        deepStrictEqual(
          [result.structuredContent.verdict, result.structuredContent.replacement],
          ["DENIED", "cryptography"],
        );
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        "in org mode, the same identity as the API",
        "no upstream: the banned package is decided by the registry alone",
      ],
    },
  ),
);
