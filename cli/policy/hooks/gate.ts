/**
 * The agent gate's one decision: given what a tool call would do (a shell
 * command or file changes), evaluate every package it would add in ONE batch
 * call and decide. Agent formats are elsewhere (`agents/answer.ts`).
 *
 * @module
 */

import { basename } from "node:path";
import type { ApiClient, EvaluationResult } from "../api_client.ts";
import type { ResolvedConfig } from "../config.ts";
import { ClientError, ServerUnreachable } from "../exit_codes.ts";
import { diffDependencies, pinnedVersion } from "../pyproject.ts";
import type { Dependencies } from "../pyproject.ts";
import { denialSentence, provisionalSentence, requestCommand } from "../messages.ts";
import { manifestDependencies, manifestKind } from "../agents/manifests.ts";
import { requestedPackages } from "../agents/shell.ts";
import type { ToolAction } from "../agents/payload.ts";

/** Internal decision: "deny" blocks; "allow" defers to the user's normal permissions. */
export type HookDecision = "allow" | "deny";

/** What the gate needs besides config. */
export interface GateDeps {
  /** A client, or the config error that prevented building one. */
  client: Pick<ApiClient, "evaluateBatch" | "requestApproval"> | ClientError;
  /** Reads a text file; null when it does not exist. */
  readFile(path: string): string | null;
}

/** A package the action adds: normalised name → spec as written. */
type Wanted = Map<string, { spec: string; version: string | null }>;

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
    return results.some((r) => r.transport_error)
      ? { kind: "silent" }
      : { kind: "results", results };
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    return config.fail_open ? { kind: "silent" } : { kind: "unavailable", error };
  }
}

function safeDeps(kind: "pyproject" | "requirements", text: string | null): Dependencies | null {
  if (text === null) return new Map();
  try {
    return manifestDependencies(kind, text);
  } catch {
    return null;
  }
}

/** Packages added or changed by file changes, and the manifests they touch; null: no manifest. */
function addedByFiles(
  action: Extract<ToolAction, { kind: "files" }>,
  deps: GateDeps,
): { wanted: Wanted; files: string[]; loose: Set<string> } | null {
  const wanted: Wanted = new Map();
  const loose = new Set<string>();
  const files: string[] = [];
  for (const change of action.changes) {
    const kind = manifestKind(change.path);
    if (kind === null) continue;
    files.push(basename(change.path));
    const current = deps.readFile(change.readFrom ?? change.path);
    const after = change.after(current);
    if (after === null) {
      // Not simulable here (the editor may match loosely): judge the lines it inserts.
      if (change.inserted) {
        for (const [name, spec] of insertedRequirements(kind, change.inserted, current)) {
          if (!wanted.has(name)) wanted.set(name, { spec, version: pinnedVersion(spec) });
          loose.add(name);
        }
      }
      continue;
    }
    const afterDeps = safeDeps(kind, after);
    if (afterDeps === null) continue;
    const before = change.readFrom ? deps.readFile(change.path) : current;
    const [added] = diffDependencies(safeDeps(kind, before) ?? new Map(), afterDeps);
    for (const [name, spec] of added) {
      if (!wanted.has(name)) wanted.set(name, { spec, version: pinnedVersion(spec) });
    }
  }
  return files.length ? { wanted, files, loose } : null;
}

/** A quoted PEP 508 string alone on a line (a TOML array item), or an item inside `[...]`. */
const QUOTED_ITEM =
  /^\s*(?:[A-Za-z_-]+\s*=\s*\[)?\s*["']([A-Za-z0-9][^"']*)["']\s*,?\s*\]?\s*(#.*)?$/;

/**
 * Requirements among the lines a replacement inserts that it does not also
 * take out and the file does not already declare: requirement lines of a
 * requirements file, quoted array items of a pyproject.toml.
 */
export function insertedRequirements(
  kind: "pyproject" | "requirements",
  inserted: { added: string; removed: string },
  current: string | null,
): Dependencies {
  const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const removed = new Set(lines(inserted.removed));
  const fresh = lines(inserted.added).filter((l) => !removed.has(l));
  let found: Dependencies;
  if (kind === "requirements") {
    found = manifestDependencies("requirements", fresh.join("\n"));
  } else {
    found = new Map();
    // A sketch of the whole file (VS Code's insert_edit_into_file) parses as TOML: its
    // `# ...existing code...` markers are comments. A fragment does not, and is read by lines.
    for (const text of [fresh.join("\n"), `[project]\n${fresh.join("\n")}`]) {
      try {
        for (const [name, spec] of manifestDependencies("pyproject", text)) found.set(name, spec);
      } catch {
        // not TOML on its own
      }
      if (found.size) break;
    }
    for (const line of fresh) {
      const item = QUOTED_ITEM.exec(line);
      if (!item) continue;
      const deps = manifestDependencies("requirements", item[1]);
      for (const [name, spec] of deps) if (!found.has(name)) found.set(name, spec);
    }
  }
  const existing = safeDeps(kind, current) ?? new Map();
  return new Map([...found].filter(([name, spec]) => existing.get(name) !== spec));
}

function addedByCommand(command: string, cwd: string, deps: GateDeps): Wanted | null {
  const requested = requestedPackages(command, cwd, deps.readFile);
  if (requested.length === 0) return null;
  const wanted: Wanted = new Map();
  for (const r of requested) {
    if (!wanted.has(r.name)) wanted.set(r.name, { spec: r.spec, version: r.version });
  }
  return wanted;
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
    [...wanted].map(([name, w]) => ({ package: name, version: w.version })),
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
