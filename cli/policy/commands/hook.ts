/**
 * `policy hook [--agent NAME]`: one coding-agent hook event on stdin, the
 * agent's JSON answer on stdout, exit 0 always. The payload goes through the
 * one normalising adapter (`agents/payload.ts`), the gate takes one decision
 * (`hooks/gate.ts`), and `agents/answer.ts` words it in the agent's format.
 * Malformed input and our own failures never block: they print nothing on
 * stdout and one diagnostic line on stderr.
 *
 * @module
 */

import { clientFromConfig } from "../api_client.ts";
import type { ApiClient } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import { ClientError, oneLine } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { gateAction } from "../hooks/gate.ts";
import type { GateDeps } from "../hooks/gate.ts";
import { normalizePayload } from "../agents/payload.ts";
import type { Agent, Dialect, ToolAction } from "../agents/payload.ts";
import { manifestKind, projectRootOf } from "../agents/manifest_kind.ts";
import { lazyImport } from "../lazy_import.ts";
import { preToolAnswer, sessionStartAnswer } from "../agents/answer.ts";

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

function readFile(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
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

/** Output JSON for one event from `agent`'s hook, or null for no output. */
export async function hookOutput(
  stdin: string,
  io: Io,
  agent: Agent = "claude",
): Promise<string | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    io.stderr("policy hook: ignored: standard input is not a JSON hook event\n");
    return null;
  }
  const event = normalizePayload(raw, agent);
  if (typeof event === "string") {
    io.stderr(`policy hook: ignored: ${event}\n`);
    return null;
  }
  if (event.event === "other" || (event.event === "pre_tool" && event.action === null)) return null;
  const start = configStart(event.action, event.cwd, io);
  const config = await loadConfig(start);
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
  const deps: GateDeps = { client, readFile };
  if (event.event === "session_start") {
    const { handleSessionStart } = await lazyImport<typeof import("../hooks/claude.ts")>(
      new URL("../hooks/claude.ts", import.meta.url),
    );
    const context = await handleSessionStart(config.root, config, deps);
    return context === null ? null : sessionStartAnswer(event.dialect, context);
  }
  const decision = await gateAction(event.action!, event.cwd ?? start, config, deps);
  if (decision === null || decision[1] === null) return null;
  const [verdict, message] = decision;
  return preToolAnswer(
    event.dialect,
    verdict === "deny" ? { kind: "deny", message } : { kind: "context", message },
  );
}

/** Runs `hook`; always 0. */
export async function hook(io: Io, options: { agent?: Agent } = {}): Promise<number> {
  try {
    const output = await hookOutput(await io.readStdin(), io, options.agent ?? "claude");
    if (output !== null) io.stdout(output + "\n");
  } catch (error) {
    io.stderr(`policy hook: ignored: ${oneLine(String((error as Error)?.message ?? error))}\n`);
  }
  return 0;
}
