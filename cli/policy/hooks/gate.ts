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
import { denialSentence, provisionalSentence, requestCommand } from "../messages.ts";
import { manifestKind } from "../agents/manifest_kind.ts";
import { lazyImport } from "../lazy_import.ts";
import type { FileChange, ToolAction } from "../agents/payload.ts";
import type { Wanted } from "./gate_readers.ts";

/** Internal decision: "deny" blocks; "allow" defers to the user's normal permissions. */
export type HookDecision = "allow" | "deny";

/** What the gate needs besides config. */
export interface GateDeps {
  /** A client, or the config error that prevented building one. */
  client: Pick<ApiClient, "evaluateBatch" | "requestApproval"> | ClientError;
  /** Reads a text file; null when it does not exist. */
  readFile(path: string): string | null;
}

const MAX_CONTEXT = 9_500;

/** Clips a message to what agents accept as context. */
export function clip(text: string): string {
  return text.length > MAX_CONTEXT ? text.slice(0, MAX_CONTEXT) + " …" : text;
}

/** The fail-closed message: the server could not be asked and changes are blocked. */
export function unavailableMessage(config: ResolvedConfig, error: ClientError): string {
  const what = error instanceof ServerUnreachable
    ? `the policy server is unreachable at ${config.server_url}`
    : `the policy server at ${config.server_url} could not answer (${error.message})`;
  return `Dependency policy could not be checked: ${what}. fail_open is false for this ` +
    `project (.policy.toml), so dependency changes are blocked until the server answers.`;
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
 * Decides on one tool call. Null when it neither installs packages nor edits
 * a manifest (no server call); `["deny", reason]` when a package it adds is
 * DENIED, or the server cannot answer under fail-closed; `["allow", message]`
 * for provisional packages (after an automatic approval request when
 * configured); `["allow", null]` when there is nothing to say.
 */
export async function gateAction(
  action: ToolAction,
  cwd: string,
  config: ResolvedConfig,
  deps: GateDeps,
): Promise<[HookDecision, string | null] | null> {
  let wanted: Wanted;
  let loose = new Set<string>();
  let subject: string;
  let doing: string;
  // Neither a shell command nor a manifest edit: nothing to parse, nothing to load.
  if (action.kind === "files" && !action.changes.some((c) => touchesManifest(c, deps))) {
    return null;
  }
  const { addedByCommand, addedByFiles, queriesOf } = await lazyImport<
    typeof import("./gate_readers.ts")
  >(new URL("./gate_readers.ts", import.meta.url));
  if (action.kind === "shell") {
    const found = addedByCommand(action.command, action.cwd ?? cwd, deps);
    if (found === null) return null;
    wanted = found;
    subject = "This command";
    doing = "installing it with a shell command";
  } else {
    const found = addedByFiles(action, deps);
    if (found === null) return null;
    wanted = found.wanted;
    loose = found.loose;
    subject = `This edit of ${[...new Set(found.files)].join(", ")}`;
    doing = `adding it to ${found.files[0]}`;
  }
  if (wanted.size === 0) return ["allow", null];

  const outcome = await evaluateWanted(
    deps,
    config,
    queriesOf(wanted),
  );
  if (outcome.kind === "silent") return ["allow", null];
  if (outcome.kind === "unavailable") {
    return ["deny", clip(unavailableMessage(config, outcome.error))];
  }

  const denied = outcome.results.filter((r) => r.verdict === "DENIED");
  if (denied.length) {
    const lines = denied.map(denialSentence);
    lines.push(
      `${subject} is blocked by the project's dependency policy. Choose the replacement, or ` +
        `if the package is truly needed ask a human to run: ${requestCommand(denied[0].package)}`,
    );
    return ["deny", clip(lines.join(" "))];
  }
  // Loosely read names only ever deny: a guess must not file approval requests.
  const provisional = outcome.results.filter((r) =>
    r.verdict === "PROVISIONALLY_ALLOWED" && !loose.has(r.package)
  );
  if (!provisional.length) return ["allow", null];
  const lines: string[] = [];
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
