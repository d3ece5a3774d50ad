/**
 * One decision, answered in each agent's hook format (sources in
 * docs/hooks.md). Every answer goes to stdout with exit 0: a non-zero exit is
 * "proceed" for Claude Code and ignored by Copilot, so an explicit JSON deny
 * is the only reliable block. Nothing here answers "allow", except to Cursor's `preToolUse`,
 * which blocks every tool when the hook prints nothing.
 *
 * @module
 */

import type { Dialect, NormalizedEvent } from "./payload.ts";
import type { HookDecision } from "../hooks/gate.ts";

/** What to tell the agent: a block, context for the model, a warning, or nothing to say. */
export type HookAnswer =
  | { kind: "deny"; message: string }
  | { kind: "context"; message: string }
  | { kind: "warn"; message: string }
  | { kind: "allow" };

/** Agents whose answer format is Claude Code's `hookSpecificOutput`. */
const CLAUDE_LIKE = new Set<Dialect>(["claude", "codex", "vscode"]);

/** Cursor's answer: its `preToolUse` blocks every tool unless the hook says "allow". */
function cursorAnswer(answer: HookAnswer, preToolUse: boolean): string | null {
  if (answer.kind === "deny") {
    return JSON.stringify({
      permission: "deny",
      user_message: answer.message,
      agent_message: answer.message,
    });
  }
  if (answer.kind === "warn") {
    // beforeShellExecution: the user sees the warning and decides; preToolUse: it proceeds
    return JSON.stringify({
      permission: preToolUse ? "allow" : "ask",
      user_message: answer.message,
      agent_message: answer.message,
    });
  }
  if (!preToolUse) return null;
  return JSON.stringify(
    answer.kind === "context"
      ? { permission: "allow", agent_message: answer.message }
      : { permission: "allow" },
  );
}

/**
 * The JSON text for a PreToolUse-like event, or null to print nothing. `event` is the payload's
 * event name (Cursor answers its `preToolUse` and `beforeShellExecution` differently).
 */
export function preToolAnswer(
  dialect: Dialect,
  answer: HookAnswer,
  event = "",
): string | null {
  if (dialect === "cursor") return cursorAnswer(answer, event.toLowerCase() === "pretooluse");
  if (answer.kind === "allow") return null;
  if (CLAUDE_LIKE.has(dialect)) {
    if (answer.kind === "deny") {
      return JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: answer.message,
        },
      });
    }
    return JSON.stringify({
      ...(answer.kind === "warn" ? { systemMessage: answer.message } : {}),
      hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: answer.message },
    });
  }
  if (answer.kind !== "deny") {
    // Gemini shows a systemMessage; Copilot processes only a deny (see hook.ts for its warnings).
    return dialect === "gemini" ? JSON.stringify({ systemMessage: answer.message }) : null;
  }
  return dialect === "gemini"
    ? JSON.stringify({ decision: "deny", reason: answer.message })
    : JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: answer.message });
}

/** The JSON text adding `context` at session start, or null where the agent has no such answer. */
export function sessionStartAnswer(dialect: Dialect, context: string): string | null {
  if (!CLAUDE_LIKE.has(dialect)) return null;
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  });
}

/**
 * The answer for a decision of the gate (null: nothing to judge) in `event`'s format; a warning
 * is a deny for Copilot, which shows nothing else.
 */
export function decisionAnswer(
  event: Pick<NormalizedEvent, "dialect" | "eventName">,
  decision: [HookDecision, string | null] | null,
): string | null {
  const [verdict, message] = decision ?? ["allow", null];
  // Copilot processes only a deny: a warning there would be seen by no one, so it denies.
  if (verdict === "deny" || (verdict === "warn" && event.dialect === "copilot")) {
    return preToolAnswer(event.dialect, { kind: "deny", message: message ?? "" }, event.eventName);
  }
  const answer: HookAnswer = message === null
    ? { kind: "allow" }
    : { kind: verdict === "warn" ? "warn" : "context", message };
  return preToolAnswer(event.dialect, answer, event.eventName);
}
