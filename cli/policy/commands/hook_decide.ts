/**
 * The part of `policy hook` that needs the configuration, the API client and the gate, loaded
 * only for events the hook's cheap first look (`commands/hook.ts`) cannot settle: a tool call
 * that may install, write a manifest or touch the gate's files, and SessionStart.
 *
 * @module
 */

import { clientFromConfig } from "../api_client.ts";
import type { ApiClient } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import type { ResolvedConfig } from "../config.ts";
import { ClientError, oneLine } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { gateAction } from "../hooks/gate.ts";
import type { GateDeps } from "../hooks/gate.ts";
import type { Dialect, NormalizedEvent, ToolAction } from "../agents/payload.ts";
import { manifestKind, projectRootOf } from "../agents/manifest_kind.ts";
import { lazyImport } from "../lazy_import.ts";
import { decisionAnswer, sessionStartAnswer } from "../agents/answer.ts";
import { readTextOrNull } from "../read_text.ts";

/** Model name recorded when neither the payload nor POLICY_AGENT_MODEL says. */
const DEFAULT_MODEL: Record<Dialect, string> = {
  claude: "claude-code",
  cursor: "cursor",
  gemini: "gemini-cli",
  copilot: "github-copilot",
  codex: "codex-cli",
  vscode: "vscode-copilot",
};

/** Environment variables agents set to the project directory, in order of trust. */
const PROJECT_DIR_VARS = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"];

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the configuration is looked up: the project of the first edited
 * manifest (nearest ancestor with `.policy.toml` or `pyproject.toml`), else the
 * payload's cwd, else the agent's project-directory variable, else our cwd.
 * The payload comes before CLAUDE_PROJECT_DIR, so git worktrees are gated.
 */
function configStart(action: ToolAction | null, cwd: string | null, io: Io): string {
  if (action?.kind === "files") {
    const manifest = action.changes.find((c) => manifestKind(c.path) !== null);
    if (manifest) return projectRootOf(manifest.path, exists);
  }
  if (cwd) return cwd;
  for (const name of PROJECT_DIR_VARS) {
    const value = io.env(name);
    if (value) return value;
  }
  return io.cwd;
}

/** The hook's answer to a tool call it could not judge: warn under fail_open, else deny. */
function failed(
  event: NormalizedEvent,
  message: string,
  failOpen: boolean,
  io: Io,
): string | null {
  io.stderr(`policy hook: ${oneLine(message)}\n`);
  return decisionAnswer(event, [failOpen ? "warn" : "deny", message]);
}

/**
 * The decision on one event the cheap look could not settle: configuration, client, then the
 * gate (or the SessionStart context), as the agent's JSON answer or null.
 */
export async function decide(event: NormalizedEvent, io: Io): Promise<string | null> {
  const action = event.action;
  const start = configStart(action, event.cwd, io);
  let config: ResolvedConfig;
  try {
    config = await loadConfig(start);
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    // A .policy.toml the client cannot use never passes silently, whatever fail_open says.
    const message = `Dependency policy configuration is unusable: ${error.message}. A human ` +
      `must fix it; until then dependency changes are blocked.`;
    return event.event === "pre_tool"
      ? failed(event, message, false, io)
      : sessionStartAnswer(event.dialect, message);
  }
  let client: ApiClient | ClientError;
  try {
    client = clientFromConfig(config, {
      source: "hook",
      agentModel: io.env("POLICY_AGENT_MODEL") || event.model || DEFAULT_MODEL[event.dialect],
      env: io.env,
      fetch: io.fetch,
    });
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    client = error;
  }
  const deps: GateDeps = { client, readFile: readTextOrNull, env: io.env };
  if (event.event === "session_start") {
    const { handleSessionStart } = await lazyImport<typeof import("../hooks/claude.ts")>(
      new URL("../hooks/claude.ts", import.meta.url),
    );
    const context = await handleSessionStart(config.root, config, deps);
    return context === null ? null : sessionStartAnswer(event.dialect, context);
  }
  try {
    return decisionAnswer(event, await gateAction(action!, event.cwd ?? start, config, deps));
  } catch (error) {
    const message = `The dependency policy gate could not read this tool call ` +
      `(${oneLine(String((error as Error)?.message ?? error))}).`;
    return failed(event, message, config.fail_open, io);
  }
}
