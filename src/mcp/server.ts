/**
 * The policyd MCP server on the official TypeScript SDK
 * (`@modelcontextprotocol/server`): one `McpServer` per request, its tools
 * registered from the shared contracts (`src/api/mcp.ts`) and answered
 * in-process by {@link runPolicyTool}. Served statelessly over Streamable
 * HTTP by `POST /mcp`.
 *
 * @module
 */
import { type AuthInfo, createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { MCP_INSTRUCTIONS, MCP_TOOLS, mcpToolConfig } from "../api/mcp.ts";
import type { Logger } from "../log/logger.ts";
import { VERSION } from "../version.ts";
import {
  type PolicyToolDeps,
  runPolicyTool,
  type ToolCallContext,
  ToolInputError,
} from "./tools.ts";

/** A tool result: the structured output, also as JSON text for clients that read only text. */
function toolResult(output: Record<string, unknown>) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(output) }],
    structuredContent: output,
  };
}

/** A tool execution error the agent can act on (MCP reports it in-band, `isError: true`). */
function toolError(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}

/**
 * Builds an MCP server whose tools act for `context` (project, requester,
 * agent; source `mcp`).
 */
export function createPolicyMcpServer(
  deps: PolicyToolDeps & { log: Logger },
  context: ToolCallContext,
): McpServer {
  const server = new McpServer(
    { name: "policyd", version: VERSION },
    { instructions: MCP_INSTRUCTIONS },
  );
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      mcpToolConfig(tool),
      async (args: Record<string, unknown>) => {
        try {
          return toolResult(await runPolicyTool(deps, tool.name, args, context));
        } catch (error) {
          if (error instanceof ToolInputError) return toolError(error.message);
          deps.log.error("mcp tool failed", { tool: tool.name, error: String(error) });
          return toolError(`${tool.name} failed on the server; see the policyd log`);
        }
      },
    );
  }
  return server;
}

const CONTEXT_KEY = "policyd_context";

/** Serves MCP over Streamable HTTP; each request carries its caller's context. */
export interface McpHttpEndpoint {
  fetch(request: Request, context: ToolCallContext): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Creates the stateless Streamable HTTP endpoint. The caller is already
 * authenticated by the app's middleware; its context travels to the
 * per-request server through the SDK's `authInfo` pass-through.
 */
export function createMcpHttpEndpoint(deps: PolicyToolDeps & { log: Logger }): McpHttpEndpoint {
  const handler = createMcpHandler(
    (ctx) => {
      const context = ctx.authInfo?.extra?.[CONTEXT_KEY] as ToolCallContext | undefined;
      if (!context) throw new Error("MCP request without a call context");
      return createPolicyMcpServer(deps, context);
    },
    {
      onerror: (error) => deps.log.warn("mcp request rejected", { error: error.message }),
    },
  );
  return {
    fetch: (request, context) => {
      const authInfo: AuthInfo = {
        token: "",
        clientId: context.requester,
        scopes: [],
        extra: { [CONTEXT_KEY]: context },
      };
      return handler.fetch(request, { authInfo });
    },
    close: () => handler.close(),
  };
}
