/**
 * Claude Code hooks: PreToolUse (shell installs and manifest edits, through
 * the gate) and SessionStart.
 *
 * The functions return decisions; `commands/hook.ts` turns them into each
 * agent's JSON. The decision "allow" is internal only: the hook never prints
 * `permissionDecision: "allow"` (SPEC §15.14).
 *
 * @module
 */

import { z } from "zod";
import { join } from "node:path";
import type { ResolvedConfig } from "../config.ts";
import { pinnedVersion, runtimeDependencies } from "../pyproject.ts";
import type { Dependencies } from "../pyproject.ts";
import { denialSentence, provisionalSentence, requestCommand } from "../messages.ts";
import { normalizePayload } from "../agents/payload.ts";
import { clip, evaluateWanted, gateAction } from "./gate.ts";
import type { GateDeps, HookDecision } from "./gate.ts";

/** Schema of the hook events we read (unknown fields are kept). */
export const HookEventSchema = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().optional(),
  cwd: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  model: z.string().optional(),
  source: z.string().optional(),
});

/** A validated hook event. */
export type HookEvent = z.infer<typeof HookEventSchema>;

export type { HookDecision } from "./gate.ts";

/** What the hook handlers need besides config. */
export type HookDeps = GateDeps;

/**
 * Decides on a Claude Code PreToolUse event (SPEC §11): null for tools that
 * neither install packages nor edit a dependency manifest; otherwise the
 * gate's decision (see {@link gateAction}). `projectRoot` is the fallback
 * working directory when the event has no `cwd`.
 */
export async function handlePreToolUse(
  event: HookEvent,
  projectRoot: string,
  config: ResolvedConfig,
  deps: HookDeps,
): Promise<[HookDecision, string | null] | null> {
  const normalized = normalizePayload(event, "claude");
  if (typeof normalized === "string" || normalized.action === null) return null;
  return await gateAction(normalized.action, event.cwd ?? projectRoot, config, deps);
}

function runtimeDepsOrNull(text: string): Dependencies | null {
  try {
    return runtimeDependencies(text);
  } catch {
    return null;
  }
}

/**
 * SessionStart: evaluates the current runtime dependencies and returns the
 * context to add (denied and provisional ones, and how to request approval),
 * or null when there is nothing to report or no pyproject.toml.
 */
export async function handleSessionStart(
  projectRoot: string,
  config: ResolvedConfig,
  deps: HookDeps,
): Promise<string | null> {
  const text = deps.readFile(join(projectRoot, "pyproject.toml"));
  const current = text === null ? null : runtimeDepsOrNull(text);
  if (current === null || current.size === 0) return null;
  const outcome = await evaluateWanted(
    deps,
    config,
    [...current].map(([name, spec]) => ({ package: name, version: pinnedVersion(spec) })),
  );
  if (outcome.kind === "silent") return null;
  if (outcome.kind === "unavailable") {
    return clip(
      `Dependency policy: ${outcome.error.message}. fail_open is false, so installs and ` +
        `manifest edits that add dependencies will be denied until the server answers.`,
    );
  }
  const denied = outcome.results.filter((r) => r.verdict === "DENIED");
  const provisional = outcome.results.filter((r) => r.verdict === "PROVISIONALLY_ALLOWED");
  if (!denied.length && !provisional.length) return null;
  const lines = [
    `Dependency policy of project ${config.project} (policyd at ${config.server_url}):`,
  ];
  for (const r of denied) lines.push(`- ${denialSentence(r)}`);
  for (const r of provisional) {
    lines.push(`- ${provisionalSentence(r)} It is not approved; an operator has to approve it.`);
  }
  lines.push(
    `Do not add denied packages; prefer the named replacements. To ask for a package to be ` +
      `approved, run: ${requestCommand("<package>")}.`,
  );
  return clip(lines.join("\n"));
}
