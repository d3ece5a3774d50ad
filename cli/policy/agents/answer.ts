/**
 * One decision, answered in each agent's hook format (sources in
 * docs/hooks.md). Every answer goes to stdout with exit 0: a non-zero exit is
 * "proceed" for Claude Code and ignored by Copilot, so an explicit JSON deny
 * is the only reliable block. Nothing here ever answers "allow".
 *
 * @module
 */

import type { Dialect } from "./payload.ts";

/** What to tell the agent: a block, or context for the model. */
export type HookAnswer =
  | { kind: "deny"; message: string }
  | { kind: "context"; message: string };

/** Agents whose answer format is Claude Code's `hookSpecificOutput`. */
const CLAUDE_LIKE = new Set<Dialect>(["claude", "codex", "vscode"]);

/** The JSON text for a PreToolUse-like event, or null to print nothing. */
export function preToolAnswer(dialect: Dialect, answer: HookAnswer): string | null {
  if (CLAUDE_LIKE.has(dialect)) {
    return JSON.stringify({
      hookSpecificOutput: answer.kind === "deny"
        ? {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: answer.message,
        }
        : { hookEventName: "PreToolUse", additionalContext: answer.message },
    });
  }
  if (answer.kind === "context") {
    // Gemini shows a systemMessage; Cursor and Copilot have no context-only answer.
    return dialect === "gemini" ? JSON.stringify({ systemMessage: answer.message }) : null;
  }
  switch (dialect) {
    case "cursor":
      return JSON.stringify({
        permission: "deny",
        user_message: answer.message,
        agent_message: answer.message,
      });
    case "gemini":
      return JSON.stringify({ decision: "deny", reason: answer.message });
    case "copilot":
      return JSON.stringify({
        permissionDecision: "deny",
        permissionDecisionReason: answer.message,
      });
  }
  return null;
}

/** The JSON text adding `context` at session start, or null where the agent has no such answer. */
export function sessionStartAnswer(dialect: Dialect, context: string): string | null {
  if (!CLAUDE_LIKE.has(dialect)) return null;
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  });
}
