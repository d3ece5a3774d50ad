/**
 * `policy hook [--agent NAME]`: one coding-agent hook event on stdin, the
 * agent's JSON answer on stdout, exit 0 always. The payload goes through the
 * one normalising adapter (`agents/payload.ts`), the gate takes one decision
 * (`hooks/gate.ts`), and `agents/answer.ts` words it in the agent's format.
 * A tool call that certainly installs nothing is answered here, before the
 * configuration, client and shell reader load (`hook_decide.ts` does the rest).
 * Input that is not a hook event prints one diagnostic line on stderr. A tool
 * call the gate cannot read, or a `.policy.toml` it cannot use, is never
 * passed silently: denied under `fail_open = false` (and for an unusable
 * configuration always), answered with a visible warning otherwise.
 *
 * @module
 */

import { oneLine } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { normalizePayload } from "../agents/payload.ts";
import type { Agent, ToolAction } from "../agents/payload.ts";
import { mightMatter } from "../agents/shell_sniff.ts";
import { isProtectedPath } from "../agents/protected.ts";
import { manifestKind } from "../agents/manifest_kind.ts";
import { lazyImport } from "../lazy_import.ts";
import { decisionAnswer } from "../agents/answer.ts";

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
  if (event.event === "other") return null;
  const action = event.action;
  // The cheap look first: a command that installs nothing never loads the reader or config.
  if (event.event === "pre_tool" && (action === null || !relevant(action))) {
    return decisionAnswer(event, null);
  }
  try {
    const { decide } = await lazyImport<typeof import("./hook_decide.ts")>(
      new URL("./hook_decide.ts", import.meta.url),
    );
    return await decide(event, io);
  } catch (error) {
    if (event.event !== "pre_tool") throw error;
    // Failed before the configuration said fail_open: a tool call is never passed silently.
    const message = `The dependency policy gate failed on this tool call ` +
      `(${oneLine(String((error as Error)?.message ?? error))}); it is blocked.`;
    io.stderr(`policy hook: ${message}\n`);
    return decisionAnswer(event, ["deny", message]);
  }
}

/** True when the gate may have something to say about `action` (a cheap, conservative test). */
function relevant(action: ToolAction): boolean {
  if (action.kind === "shell") return mightMatter(action.command);
  return action.changes.some((c) =>
    manifestKind(c.path) !== null || isProtectedPath(c.path) ||
    (c.readFrom !== undefined && isProtectedPath(c.readFrom))
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
