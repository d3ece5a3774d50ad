/**
 * A Claude Code PreToolUse payload (the hooks reference's shape) for the
 * end-to-end tests that feed `policy hook` directly.
 *
 * @module
 */
import { join } from "node:path";

/** The JSON text of a PreToolUse event for `toolName` with `toolInput`, run in `dir`. */
export function claudePreToolUse(
  dir: string,
  toolName: string,
  toolInput: Record<string, unknown>,
): string {
  return JSON.stringify({
    session_id: "abc123",
    transcript_path: join(dir, ".claude", "t.jsonl"),
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: "toolu_01ABC",
  });
}
