/**
 * `policy hook`: one Claude Code hook event on stdin, the protocol's JSON on
 * stdout, exit 0 always. Malformed input and our own failures never block:
 * they print nothing on stdout and one diagnostic line on stderr, which
 * Claude Code only shows in its verbose/transcript view for exit 0.
 *
 * @module
 */

import { clientFromConfig } from "../api_client.ts";
import type { ApiClient } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import { ClientError, oneLine } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { handlePreToolUse, handleSessionStart, HookEventSchema } from "../hooks/claude.ts";
import type { HookDeps } from "../hooks/claude.ts";

function readFile(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    // a file that does not exist yet: canonicalise its directory
    const slash = path.lastIndexOf("/");
    return slash > 0 ? Deno.realPathSync(path.slice(0, slash)) + path.slice(slash) : path;
  }
}

/** Output JSON for one event, or null for no output. */
export async function hookOutput(stdin: string, io: Io): Promise<string | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    io.stderr("policy hook: ignored: standard input is not a JSON hook event\n");
    return null;
  }
  const parsed = HookEventSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    io.stderr(
      `policy hook: ignored: invalid hook event (${issue.path.join(".")}: ${issue.message})\n`,
    );
    return null;
  }
  const event = parsed.data;
  if (event.hook_event_name !== "PreToolUse" && event.hook_event_name !== "SessionStart") {
    return null;
  }
  const start = io.env("CLAUDE_PROJECT_DIR") || event.cwd || io.cwd;
  const config = loadConfig(start);
  let client: ApiClient | ClientError;
  try {
    client = clientFromConfig(config, {
      source: "hook",
      agentModel: io.env("POLICY_AGENT_MODEL") || event.model || "claude-code",
      env: io.env,
      fetch: io.fetch,
    });
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    client = error;
  }
  const deps: HookDeps = { client, readFile, realPath };
  if (event.hook_event_name === "SessionStart") {
    const context = await handleSessionStart(config.root, config, deps);
    if (context === null) return null;
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
    });
  }
  const decision = await handlePreToolUse(event, config.root, config, deps);
  if (decision === null || decision[1] === null) return null;
  const [verdict, message] = decision;
  return JSON.stringify({
    hookSpecificOutput: verdict === "deny"
      ? {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: message,
      }
      : { hookEventName: "PreToolUse", additionalContext: message },
  });
}

/** Runs `hook`; always 0. */
export async function hook(io: Io): Promise<number> {
  try {
    const output = await hookOutput(await io.readStdin(), io);
    if (output !== null) io.stdout(output + "\n");
  } catch (error) {
    io.stderr(`policy hook: ignored: ${oneLine(String((error as Error)?.message ?? error))}\n`);
  }
  return 0;
}
