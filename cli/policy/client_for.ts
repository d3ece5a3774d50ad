/**
 * The one client factory of the commands: reads `.policy.toml` from the
 * working directory and builds the API client with the command's call source,
 * the agent identity (flag, else environment) and the process's environment
 * and fetch. Commands that tolerate a broken configuration (the hook, the
 * pre-commit hook) use `clientFromConfig` on a config they loaded themselves.
 *
 * @module
 */
import { type ApiClient, type ClientContext, clientFromConfig } from "./api_client.ts";
import { loadConfig, type ResolvedConfig } from "./config.ts";
import type { Io } from "./io.ts";

/** The client of one command run, and the configuration it came from. */
export interface CommandClient {
  client: ApiClient;
  config: ResolvedConfig;
}

/**
 * Loads the configuration and builds the command's client; a missing or
 * invalid configuration, or a missing org-mode token, is a `ClientError`.
 *
 * @example
 * ```ts
 * import type { Io } from "./io.ts";
 * declare const io: Io;
 * const { client } = await clientFor(io, { source: "check", agentModel: "claude-opus" });
 * await client.evaluate("requests", null);
 * ```
 */
export async function clientFor(
  io: Io,
  context: Pick<ClientContext, "source" | "agentModel" | "agentVersion">,
): Promise<CommandClient> {
  const config = await loadConfig(io.cwd);
  const client = clientFromConfig(config, { ...context, env: io.env, fetch: io.fetch });
  return { client, config };
}
