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
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import process from "node:process";
import { PassThrough } from "node:stream";
import { MCP_INSTRUCTIONS, MCP_TOOLS, mcpToolConfig } from "../../../src/api/mcp.ts";
import { clientFor } from "../client_for.ts";
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

/** A JSON-RPC message as far as in-flight tracking needs it. */
type Message = Parameters<StdioServerTransport["send"]>[0];

/**
 * The stdio transport, finishing what it started: the SDK's transport
 * aborts the requests still in flight when standard input ends, so this one
 * hands it standard input through a stream whose end is held back until
 * every request received has been answered ({@link InFlightStdioTransport.finish}).
 */
export class InFlightStdioTransport {
  #input = new PassThrough();
  #inner: StdioServerTransport;
  #pending = new Set<unknown>();
  #idle: Array<() => void> = [];
  /** Resolves when the real standard input has ended. */
  readonly inputEnded: Promise<void>;
  /** Set by the server: every inbound message. */
  onmessage?: (message: Message) => void;
  /** Set by the server: transport errors. */
  onerror?: (error: Error) => void;
  /** Set by the server: the transport closed. */
  onclose?: () => void;

  constructor(input: NodeJS.ReadableStream = process.stdin) {
    input.pipe(this.#input, { end: false });
    this.inputEnded = new Promise<void>((resolve) => {
      input.once("end", resolve);
      input.once("close", resolve);
    });
    this.#inner = new StdioServerTransport(this.#input, process.stdout);
    this.#inner.onmessage = (message: Message) => {
      const m = message as { id?: unknown; method?: unknown };
      if (m.id !== undefined && typeof m.method === "string") this.#pending.add(m.id);
      this.onmessage?.(message);
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => this.onclose?.();
  }

  /** Starts reading standard input. */
  start(): Promise<void> {
    return this.#inner.start();
  }

  /** Writes one message; a reply settles its request. */
  async send(message: Message): Promise<void> {
    try {
      await this.#inner.send(message);
    } finally {
      const m = message as { id?: unknown; method?: unknown };
      if (m.id !== undefined && m.method === undefined && this.#pending.delete(m.id)) {
        if (this.#pending.size === 0) { for (const resolve of this.#idle.splice(0)) resolve(); }
      }
    }
  }

  /** Stops the transport. */
  close(): Promise<void> {
    return this.#inner.close();
  }

  /**
   * Once standard input has ended: waits until every request received has
   * been answered (at most `ms`), then lets the SDK see the end of input.
   */
  async finish(ms: number): Promise<void> {
    await this.inputEnded;
    await new Promise((resolve) => setTimeout(resolve, 0)); // the last lines are dispatched
    if (this.#pending.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.#idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.#input.end();
  }
}

/** How long `policy mcp` waits, once standard input closes, for calls still in flight. */
const DRAIN_MS = 30_000;

/** Runs `policy mcp` until standard input closes and the calls in flight are answered. */
export async function mcp(io: Io): Promise<number> {
  const { client: api } = await clientFor(io, { source: "mcp" });
  const call = remoteToolCaller({ serverUrl: api.serverUrl, headers: api.headers() });
  const transport = new InFlightStdioTransport();
  const handle = serveStdio(() => createForwardingServer(call), {
    transport,
    onerror: (error) => io.stderr(`policy mcp: ${error.message.split("\n")[0]}\n`),
  });
  // A request read just before end of input is still being answered: finish it first.
  await transport.finish(DRAIN_MS);
  await handle.close();
  return EXIT.OK;
}
