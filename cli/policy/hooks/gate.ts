/**
 * The agent gate's one decision: given what a tool call would do (a shell
 * command or file changes), evaluate every package it would add in ONE batch
 * call and decide. Agent formats are elsewhere (`agents/answer.ts`).
 *
 * @module
 */

import type { ApiClient, EvaluationResult } from "../api_client.ts";
import type { ResolvedConfig } from "../config.ts";
import { ClientError, ServerUnreachable } from "../exit_codes.ts";
import { provisionalSentence, requestCommand } from "../messages.ts";
import { manifestKind } from "../agents/manifest_kind.ts";
import { isProtectedPath, protectedMessage } from "../agents/protected.ts";
import { lazyImport } from "../lazy_import.ts";
import type { FileChange, ToolAction } from "../agents/payload.ts";
import type { CommandFindings, Wanted } from "./gate_readers.ts";
import { approvalMessage, denialMessage, unreadableMessage } from "./gate_messages.ts";
import { foreignIndexMessage, isPolicyIndex, usesPolicyIndex } from "./gate_index.ts";

/**
 * Internal decision: "deny" blocks; "allow" defers to the user's normal permissions; "warn"
 * allows with a warning the agent and the user see.
 */
export type HookDecision = "allow" | "deny" | "warn";

/** What the gate needs besides config. */
export interface GateDeps {
  /** A client, or the config error that prevented building one. */
  client: Pick<ApiClient, "evaluateBatch" | "requestApproval"> | ClientError;
  /** Reads a text file; null when it does not exist. */
  readFile(path: string): string | null;
  /** The agent's environment (index variables); none when absent. */
  env?: (name: string) => string | undefined;
}

const MAX_CONTEXT = 9_500;

/**
 * The registry's own denial categories: the only ones a guessed name (a VCS URL's repository
 * name, see `RequestedPackage.guessed`) may be denied with. A guess judged by the supply-chain
 * rules (typosquat, missing project, new project …) names a project nobody asked for.
 */
export const REGISTRY_CATEGORIES: ReadonlySet<string> = new Set([
  "DENIAL_BANNED",
  "DENIAL_DEPRECATED",
  "DENIAL_VERSION_CONSTRAINT",
]);

/** Clips a message to what agents accept as context. */
export function clip(text: string): string {
  return text.length > MAX_CONTEXT ? text.slice(0, MAX_CONTEXT) + " …" : text;
}

/** The fail-closed message: the server could not be asked and changes are blocked. */
export function unavailableMessage(config: ResolvedConfig, error: ClientError): string {
  const what = error instanceof ServerUnreachable
    ? `the policy server is unreachable at ${config.server_url}`
    : `the policy server at ${config.server_url} could not answer (${error.message})`;
  // The cached registry may already have denied some packages (api_client.ts, offline rules).
  const offline = error instanceof ServerUnreachable
    ? /decided offline from registry version .*$/.exec(error.detail)?.[0]
    : undefined;
  return `Dependency policy could not be checked: ${what}. fail_open is false for this ` +
    `project (.policy.toml), so dependency changes are blocked until the server answers.` +
    (offline ? ` Registry rules ${offline}.` : "");
}

/** Outcome of one batch evaluation. */
export type Outcome =
  | { kind: "results"; results: EvaluationResult[] }
  | { kind: "unavailable"; error: ClientError }
  | { kind: "silent" };

/** Evaluates `wanted` in one batch call, folding server trouble per `fail_open`. */
export async function evaluateWanted(
  deps: GateDeps,
  config: ResolvedConfig,
  wanted: Array<{ package: string; version: string | null }>,
): Promise<Outcome> {
  try {
    if (deps.client instanceof ClientError) throw deps.client;
    const results = await deps.client.evaluateBatch(wanted);
    // Unchecked (fail-open) results say nothing, unless a rule decided offline denies.
    return results.some((r) => r.transport_error) && !results.some((r) => r.verdict === "DENIED")
      ? { kind: "silent" }
      : { kind: "results", results };
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    return config.fail_open ? { kind: "silent" } : { kind: "unavailable", error };
  }
}

/** Findings that deny before any evaluation: the gate's own files, approvals, other indexes. */
function preliminary(
  found: CommandFindings,
  cwd: string,
  config: ResolvedConfig,
  deps: GateDeps,
): string | null {
  const guarded = [...found.touched.filter(isProtectedPath), ...found.disables];
  if (guarded.length) return protectedMessage(guarded);
  if (found.approvals.length) return approvalMessage(found.approvals);
  const foreign = found.indexes.filter((url) => !isPolicyIndex(url, config.server_url));
  if (
    foreign.length &&
    (usesPolicyIndex(config.root, config.server_url, deps.readFile, deps.env) ||
      (cwd !== config.root && usesPolicyIndex(cwd, config.server_url, deps.readFile)))
  ) return foreignIndexMessage(foreign, config.server_url);
  return null;
}

/**
 * Whether a file change can add a dependency: a manifest, or a `.py` file
 * whose text (before, after or inserted) holds a PEP 723 `# /// script`
 * block; any other Python file is not read further.
 */
function touchesManifest(change: FileChange, deps: GateDeps): boolean {
  const kind = manifestKind(change.path);
  if (kind !== "script") return kind !== null;
  const current = deps.readFile(change.readFrom ?? change.path);
  return [current, change.after(current), change.inserted?.added].some((text) =>
    text?.includes("# /// script") ?? false
  );
}

/**
 * Decides on one tool call. Null when it neither installs packages, writes a manifest nor
 * touches the gate (no server call); `["deny", reason]` when it changes the gate's own files,
 * approves, routes around the policy index, adds a DENIED package, cannot be read under
 * fail-closed, or the server cannot answer under fail-closed; `["warn", message]` when part of it
 * could not be read under fail-open; `["allow", message]` for provisional packages (after an
 * automatic approval request when configured); `["allow", null]` when there is nothing to say.
 */
export async function gateAction(
  action: ToolAction,
  cwd: string,
  config: ResolvedConfig,
  deps: GateDeps,
): Promise<[HookDecision, string | null] | null> {
  if (action.kind === "files") {
    const guarded = action.changes.flatMap((c) => [c.path, c.readFrom ?? ""])
      .filter((p) => p && isProtectedPath(p));
    if (guarded.length) return ["deny", clip(protectedMessage(guarded))];
    // Neither a shell command nor a manifest edit: nothing to parse, nothing to load.
    if (!action.changes.some((c) => touchesManifest(c, deps))) return null;
  }
  let wanted: Wanted;
  let loose = new Set<string>();
  let guessed = new Set<string>();
  let problems: string[] = [];
  let subject: string;
  let doing: string;
  const { addedByCommand, addedByFiles, prepareReaders, queriesOf } = await lazyImport<
    typeof import("./gate_readers.ts")
  >(new URL("./gate_readers.ts", import.meta.url));
  await prepareReaders(
    action.kind === "shell" ? [action.command] : action.changes.map((c) => c.path),
  );
  if (action.kind === "shell") {
    const found = addedByCommand(action.command, action.cwd ?? cwd, deps);
    if (found === null) return null;
    const early = preliminary(found, action.cwd ?? cwd, config, deps);
    if (early !== null) return ["deny", clip(early)];
    ({ wanted, loose, guessed, problems } = found);
    subject = "This command";
    doing = "installing it with a shell command";
  } else {
    const found = addedByFiles(action, deps);
    if (found === null) return null;
    wanted = found.wanted;
    loose = found.loose;
    problems = found.problems ?? [];
    subject = `This edit of ${[...new Set(found.files)].join(", ")}`;
    doing = `adding it to ${found.files[0]}`;
  }
  if (problems.length && !config.fail_open) {
    return ["deny", clip(unreadableMessage(problems, false))];
  }
  const warning = problems.length ? unreadableMessage(problems, true) : null;
  const quiet: [HookDecision, string | null] = warning ? ["warn", clip(warning)] : ["allow", null];
  if (wanted.size === 0) return quiet;

  const outcome = await evaluateWanted(
    deps,
    config,
    queriesOf(wanted),
  );
  if (outcome.kind === "silent") return quiet;
  if (outcome.kind === "unavailable") {
    return ["deny", clip(unavailableMessage(config, outcome.error))];
  }

  const denied = outcome.results.filter((r) =>
    r.verdict === "DENIED" &&
    (!guessed.has(r.package) || REGISTRY_CATEGORIES.has(r.denial_category ?? ""))
  );
  if (denied.length) {
    const text = denialMessage(subject, denied) + (warning ? `\n${warning}` : "");
    return ["deny", clip(text)];
  }
  // Loosely read names only ever deny: a guess must not file approval requests.
  const provisional = outcome.results.filter((r) =>
    r.verdict === "PROVISIONALLY_ALLOWED" && !loose.has(r.package)
  );
  if (!provisional.length) return quiet;
  const lines: string[] = warning ? [warning] : [];
  for (const result of provisional) {
    lines.push(provisionalSentence(result));
    if (config.auto_request_approval && !(deps.client instanceof ClientError)) {
      try {
        const receipt = await deps.client.requestApproval({
          package: result.package,
          version: result.version ?? null,
          rationale: `Automatic request from the coding-agent hook: the assistant is ` +
            `${doing} (${wanted.get(result.package)?.spec ?? result.package}).`,
        });
        lines.push(`An approval request was ${receipt.message}.`);
      } catch (error) {
        lines.push(`The automatic approval request failed: ${(error as Error).message}.`);
      }
    } else {
      lines.push(`Ask for a review with: ${requestCommand(result.package)}.`);
    }
  }
  lines.push(
    "It may be used for now, but it is not in the policy registry; an operator has to approve it.",
  );
  return [warning ? "warn" : "allow", clip(lines.join(" "))];
}
