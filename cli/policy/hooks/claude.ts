/**
 * Claude Code hooks: PreToolUse on edits of `pyproject.toml` and SessionStart.
 *
 * The functions return decisions; `commands/hook.ts` turns them into the
 * JSON of the hook protocol. The decision "allow" is internal only: the hook
 * never prints `permissionDecision: "allow"` (SPEC §15.14).
 *
 * @module
 */

import { z } from "zod";
import { isAbsolute, join, resolve } from "node:path";
import type { ApiClient, EvaluationResult } from "../api_client.ts";
import type { ResolvedConfig } from "../config.ts";
import { ClientError } from "../exit_codes.ts";
import {
  diffDependencies,
  pinnedVersion,
  runtimeDependencies,
  simulateEdit,
} from "../pyproject.ts";
import type { Dependencies } from "../pyproject.ts";
import { denialSentence, provisionalSentence, requestCommand } from "../messages.ts";

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

/** Internal decision: "deny" blocks; "allow" defers to the user's normal permissions. */
export type HookDecision = "allow" | "deny";

/** Tools whose pyproject.toml edits are checked. */
export const EDIT_TOOLS = ["Edit", "Write", "MultiEdit"] as const;

/** What the hook handlers need besides config. */
export interface HookDeps {
  /** A client, or the config error that prevented building one. */
  client: Pick<ApiClient, "evaluateBatch" | "requestApproval"> | ClientError;
  /** Reads a text file; null when it does not exist. */
  readFile(path: string): string | null;
  /** Canonical form of a path (symlinks resolved) for comparisons. */
  realPath?(path: string): string;
}

const MAX_CONTEXT = 9_500;

function clip(text: string): string {
  return text.length > MAX_CONTEXT ? text.slice(0, MAX_CONTEXT) + " …" : text;
}

function unavailableMessage(config: ResolvedConfig, error: ClientError): string {
  return `Dependency policy could not be checked: ${error.message}. ` +
    `fail_open is false for this project (.policy.toml), so pyproject.toml dependency ` +
    `changes are blocked until the policyd server at ${config.server_url} answers.`;
}

function sameFile(a: string, b: string, deps: HookDeps): boolean {
  if (a === b) return true;
  if (!deps.realPath) return false;
  try {
    return deps.realPath(a) === deps.realPath(b);
  } catch {
    return false;
  }
}

function safeDeps(text: string | null): Dependencies | null {
  if (text === null) return new Map();
  try {
    return runtimeDependencies(text);
  } catch {
    return null;
  }
}

type Outcome =
  | { kind: "results"; results: EvaluationResult[] }
  | { kind: "unavailable"; error: ClientError }
  | { kind: "silent" };

async function evaluate(
  deps: HookDeps,
  config: ResolvedConfig,
  wanted: Dependencies,
): Promise<Outcome> {
  const queries = [...wanted].map(([name, spec]) => ({
    package: name,
    version: pinnedVersion(spec),
  }));
  try {
    if (deps.client instanceof ClientError) throw deps.client;
    return { kind: "results", results: await deps.client.evaluateBatch(queries) };
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    return config.fail_open ? { kind: "silent" } : { kind: "unavailable", error };
  }
}

/**
 * Decides on a PreToolUse event. Returns null for other tools and files;
 * `["deny", reason]` when an added or changed runtime dependency is DENIED (or
 * the server cannot answer under fail-closed); `["allow", message]` for
 * provisional ones (after an automatic approval request when configured);
 * `["allow", null]` when there is nothing to say.
 */
export async function handlePreToolUse(
  event: HookEvent,
  projectRoot: string,
  config: ResolvedConfig,
  deps: HookDeps,
): Promise<[HookDecision, string | null] | null> {
  const tool = event.tool_name ?? "";
  if (!(EDIT_TOOLS as readonly string[]).includes(tool)) return null;
  const input = event.tool_input ?? {};
  if (typeof input.file_path !== "string" || input.file_path === "") return null;
  const target = join(projectRoot, "pyproject.toml");
  const filePath = isAbsolute(input.file_path)
    ? input.file_path
    : resolve(event.cwd ?? projectRoot, input.file_path);
  if (!sameFile(resolve(filePath), target, deps)) return null;

  const current = deps.readFile(target);
  const after = simulateEdit(current, tool, input);
  if (after === null) return ["allow", null];
  const afterDeps = safeDeps(after);
  if (afterDeps === null) return ["allow", null];
  const [added] = diffDependencies(safeDeps(current) ?? new Map(), afterDeps);
  if (added.size === 0) return ["allow", null];

  const outcome = await evaluate(deps, config, added);
  if (outcome.kind === "silent") return ["allow", null];
  if (outcome.kind === "unavailable") {
    return ["deny", clip(unavailableMessage(config, outcome.error))];
  }
  const evaluations = outcome.results;

  const denied = evaluations.filter((r) => r.verdict === "DENIED");
  if (denied.length) {
    const lines = denied.map(denialSentence);
    lines.push(
      `This edit of pyproject.toml is blocked by the project's dependency policy. ` +
        `Choose the replacement, or if the package is truly needed ask a human to run: ` +
        requestCommand(denied[0].package),
    );
    return ["deny", clip(lines.join(" "))];
  }
  const provisional = evaluations.filter((r) => r.verdict === "PROVISIONALLY_ALLOWED");
  if (!provisional.length) return ["allow", null];
  const lines: string[] = [];
  for (const result of provisional) {
    lines.push(provisionalSentence(result));
    if (config.auto_request_approval && !(deps.client instanceof ClientError)) {
      try {
        const receipt = await deps.client.requestApproval({
          package: result.package,
          version: result.version ?? null,
          rationale: `Automatic request from the Claude Code hook: the assistant is adding ` +
            `${added.get(result.package) ?? result.package} to pyproject.toml.`,
        });
        lines.push(`An approval request was filed automatically (id ${receipt.id}).`);
      } catch (error) {
        lines.push(`The automatic approval request failed: ${(error as Error).message}.`);
      }
    } else {
      lines.push(`Ask for a review with: ${requestCommand(result.package)}.`);
    }
  }
  lines.push("It may be used for now, but it is not yet in the policy registry and awaits review.");
  return ["allow", clip(lines.join(" "))];
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
  const current = text === null ? null : safeDeps(text);
  if (current === null || current.size === 0) return null;
  const outcome = await evaluate(deps, config, current);
  if (outcome.kind === "silent") return null;
  if (outcome.kind === "unavailable") {
    return clip(
      `Dependency policy: ${outcome.error.message}. fail_open is false, so edits that add dependencies to pyproject.toml will be denied ` +
        `until it answers.`,
    );
  }
  const denied = outcome.results.filter((r) => r.verdict === "DENIED");
  const provisional = outcome.results.filter((r) => r.verdict === "PROVISIONALLY_ALLOWED");
  if (!denied.length && !provisional.length) return null;
  const lines = [
    `Dependency policy of project ${config.project} (policyd at ${config.server_url}):`,
  ];
  for (const r of denied) lines.push(`- ${denialSentence(r)}`);
  for (const r of provisional) lines.push(`- ${provisionalSentence(r)} It awaits review.`);
  lines.push(
    `Do not add denied packages; prefer the named replacements. To ask for a package to be ` +
      `approved, run: ${requestCommand("<package>")}.`,
  );
  return clip(lines.join("\n"));
}
