/**
 * The `local_file` proposer: inserts or replaces the rule in `REGISTRY_PATH`,
 * validates the merged document, writes it atomically and reloads, so the
 * rule is live at once (status `applied`). No review step.
 *
 * @module
 */
import { resolve } from "node:path";
import { writeFileAtomic } from "../registry/files.ts";
import type { ReloadResult } from "../registry/live.ts";
import { createKeyedMutex } from "./mutex.ts";
import { describeErrors, upsertRule } from "./registry_edit.ts";
import { type RemoveOutcome, removeRule } from "./rule_remove.ts";
import type {
  ProposalContext,
  ProposalResult,
  ProposedRule,
  Proposer,
  ProposerDeps,
} from "./types.ts";

/** Reads a file, or null when it does not exist. */
export async function readIfExists(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** What happens between the atomic write and the reload (local_git commits). */
export type AfterWrite = (
  path: string,
  rule: { name: string; status: string },
  context: ProposalContext,
) => Promise<{ ok: true; commit_sha?: string } | { ok: false; detail: string }>;

/** Options of {@link applyRuleToFile}. */
export interface ApplyOptions {
  backend: string;
  path: string;
  reload: () => Promise<ReloadResult>;
  afterWrite?: AfterWrite;
}

function liveDetail(name: string, path: string, reload: ReloadResult): string {
  const approved = reload.approved_requests === 1
    ? "1 pending request"
    : `${reload.approved_requests} pending requests`;
  return `rule for ${name} written to ${path} and live (registry ${reload.new_version}; ${approved} approved)`;
}

/**
 * The shared write path of the local proposers: read (empty registry if
 * absent), upsert, validate, write temp + rename, optional commit, reload.
 * A failed validation leaves the file byte-identical.
 */
export function applyRuleToFile(
  rule: ProposedRule,
  context: ProposalContext,
  options: ApplyOptions,
): Promise<ProposalResult> {
  return applyEditToFile((before) => upsertRule(before, rule), context, options);
}

/**
 * The same write path removing the rule for `name` (a revert of a change
 * that added the package, issue #31).
 */
export function removeRuleFromFile(
  name: string,
  context: ProposalContext,
  options: ApplyOptions,
): Promise<ProposalResult> {
  return applyEditToFile((before) => removeRule(before, name), context, options);
}

async function applyEditToFile(
  editOf: (before: string | null) => RemoveOutcome,
  context: ProposalContext,
  options: ApplyOptions,
): Promise<ProposalResult> {
  const { backend, path } = options;
  const failed = (detail: string): ProposalResult => ({ backend, status: "failed", detail });
  let before: string | null;
  try {
    before = await readIfExists(path);
  } catch (error) {
    return failed(`cannot read the registry ${path}: ${(error as Error).message}`);
  }
  const edit = editOf(before);
  if (!edit.ok) {
    const what = edit.where === "rule" ? "invalid rule" : "the merged registry would be invalid";
    return failed(`${what}: ${describeErrors(edit.errors)}; ${path} is unchanged`);
  }
  let commit_sha: string | undefined;
  if (edit.changed) {
    try {
      await writeFileAtomic(path, edit.text);
    } catch (error) {
      return failed(`cannot write the registry ${path}: ${(error as Error).message}`);
    }
    if (options.afterWrite) {
      const after = await options.afterWrite(path, edit.rule, context);
      if (!after.ok) {
        // Put the previous content back so disk and history agree.
        if (before === null) await Deno.remove(path).catch(() => {});
        else await writeFileAtomic(path, before).catch(() => {});
        return failed(after.detail);
      }
      commit_sha = after.commit_sha;
    }
  }
  const reload = await options.reload();
  const sha = commit_sha ? { commit_sha } : {};
  if (!reload.ok) {
    return {
      backend,
      status: "opened",
      ...sha,
      detail:
        `rule for ${edit.rule.name} written to ${path}, but the reload failed: ${reload.detail}`,
    };
  }
  return {
    backend,
    status: "applied",
    ...sha,
    detail: edit.rule.status === "removed"
      ? (edit.changed
        ? `rule for ${edit.rule.name} removed from ${path} (registry ${reload.new_version})`
        : `${path} has no rule for ${edit.rule.name}; nothing written (registry ${reload.new_version})`)
      : edit.changed
      ? liveDetail(edit.rule.name, path, reload)
      : `${path} already has this rule for ${edit.rule.name}; nothing written (registry ${reload.new_version})`,
  };
}

/**
 * Creates the local-file proposer for `REGISTRY_PATH`.
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import { proposersArea } from "./settings.ts";
 * import type { ProposalContext } from "./types.ts";
 * declare const live: LiveRegistry;
 * declare const context: ProposalContext;
 * const proposer = createLocalFileProposer({
 *   options: optionsFromEnv(proposersArea, {}),
 *   registryPath: "registry/registry.yaml",
 *   settings: {},
 *   log,
 *   reload: () => live.reload(),
 * });
 * (await proposer.propose({ name: "left-pad", status: "approved" }, context)).status; // "applied"
 * ```
 */
export function createLocalFileProposer(deps: ProposerDeps): Proposer {
  const path = deps.registryPath;
  const mutex = createKeyedMutex();
  return {
    name: "local_file",
    appliesAtOnce: true,
    propose: (rule, context) =>
      mutex.run(
        resolve(path),
        () => applyRuleToFile(rule, context, { backend: "local_file", path, reload: deps.reload }),
      ),
    withdraw: (name, context) =>
      mutex.run(
        resolve(path),
        () =>
          removeRuleFromFile(name, context, { backend: "local_file", path, reload: deps.reload }),
      ),
  };
}
