/**
 * `policy mcp`: an MCP server on standard input/output for coding agents.
 * A thin client: it lists the tools from the shared contract
 * (`src/api/mcp.ts`) and forwards every tool call, with the project, the
 * agent and the bearer token of `.policy.toml`, to policyd's `POST /mcp`
 * through the SDK's Streamable HTTP client. Evaluations are audited on the
 * server with source `mcp`.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import process from "node:process";
import { MCP_INSTRUCTIONS, MCP_TOOLS, mcpToolConfig } from "../../../src/api/mcp.ts";
import { clientFromConfig } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import { EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";

/** Version this stdio server reports (the client's). */
const MCP_CLIENT_VERSION = "0.1.0";

/** What {@link createForwardingServer} needs: where policyd is and how to call it. */
export interface ForwardingOptions {
  serverUrl: string;
  headers: Headers;
}

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/**
 * Returns a function that forwards one tool call to policyd's `/mcp`,
 * connecting on first use and reconnecting after a failure.
 */
export function remoteToolCaller(options: ForwardingOptions) {
  let connected: Promise<Client> | null = null;
  const connect = async () => {
    const client = new Client({ name: "policy-mcp", version: MCP_CLIENT_VERSION });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${options.serverUrl}/mcp`), {
        requestInit: { headers: options.headers },
      }),
    );
    return client;
  };
  return async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    try {
      connected ??= connect();
      return await (await connected).callTool({ name, arguments: args });
    } catch (error) {
      connected = null;
      const detail = String((error as Error)?.message ?? error).split("\n")[0];
      return {
        content: [{
          type: "text",
          text: `policyd at ${options.serverUrl} could not answer ${name}: ${detail}. ` +
            `The package was NOT checked; do not assume it is allowed.`,
        }],
        isError: true,
      };
    }
  };
}

/** Builds the stdio-side MCP server: the shared tool contracts, each call forwarded. */
export function createForwardingServer(
  call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>,
): McpServer {
  const server = new McpServer(
    { name: "policyd", version: MCP_CLIENT_VERSION },
    { instructions: MCP_INSTRUCTIONS },
  );
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      mcpToolConfig(tool),
      (args: Record<string, unknown>) => call(tool.name, args),
    );
  }
  return server;
}

/** Runs `policy mcp` until standard input closes. */
export async function mcp(io: Io): Promise<number> {
  const config = await loadConfig(io.cwd);
  const api = clientFromConfig(config, { source: "mcp", env: io.env, fetch: io.fetch });
  const call = remoteToolCaller({ serverUrl: api.serverUrl, headers: api.headers() });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const handle = serveStdio(() => createForwardingServer(call), {
    onerror: (error) => io.stderr(`policy mcp: ${error.message.split("\n")[0]}\n`),
  });
  await ended;
  await handle.close();
  return EXIT.OK;
}
