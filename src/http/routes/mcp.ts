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
    // A copy without the socket's abort signal: Deno.serve warns when a handler
    // reads `request.signal`, and a stateless exchange has nothing to clean up.
    const request = new Request(c.req.url, {
      method: "POST",
      headers: c.req.raw.headers,
      body: await c.req.raw.arrayBuffer(),
    });
    return await endpoint.fetch(request, {
      ...c.get("context"),
      source: "mcp",
    });
  });
  return routes;
}
