/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP (stateless),
 * behind the same authentication as the API. Tool calls are evaluated
 * in-process and audited with source `mcp`.
 *
 * @module
 */
import { Hono } from "hono";
import { createMcpHttpEndpoint } from "../../mcp/server.ts";
import type { AppDeps, AppEnv } from "../deps.ts";

/** Whether a body's first non-blank byte opens a JSON array. */
function isJsonArray(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0xef) continue;
    if (byte === 0xbb || byte === 0xbf) continue; // a UTF-8 byte-order mark
    return byte === 0x5b;
  }
  return false;
}

/** The MCP route. */
export function mcpRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const endpoint = createMcpHttpEndpoint({
    evaluations: deps.evaluations,
    approvals: deps.approvals,
    registry: deps.registry,
    log: deps.log,
  });
  routes.post("/mcp", async (c) => {
    // The body arrives buffered within its size and deadline (`bodyBudget`).
    const body = await c.req.arrayBuffer();
    // One request, one budget (issue 34): a JSON-RPC batch would multiply the
    // rate limit and the batch limit by its length, so batches are refused
    // (MCP 2025-06-18 dropped them; the SDK's clients send one message a POST).
    if (isJsonArray(new Uint8Array(body))) {
      return c.json({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message: "JSON-RPC batches are not accepted; send one message per request",
        },
      }, 400);
    }
    // A copy without the socket's abort signal: Deno.serve warns when a handler
    // reads `request.signal`, and a stateless exchange has nothing to clean up.
    const request = new Request(c.req.url, {
      method: "POST",
      headers: c.req.raw.headers,
      body,
    });
    return await endpoint.fetch(request, {
      ...c.get("context"),
      source: "mcp",
    });
  });
  return routes;
}
