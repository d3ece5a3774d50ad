/**
 * Proposers: how a registry change is proposed (SPEC §9, seed "Proposers").
 * Every registry update goes through one of them and then the one reload
 * routine; nothing else writes the in-memory registry.
 *
 * @module
 */
import type { ParsedSettings } from "../config/area.ts";
import type { ProposerOptions } from "./settings.ts";
import type { Logger } from "../log/logger.ts";
import type { ReloadResult } from "../registry/live.ts";

/** A rule to add or replace (seed "ProposedRule"); `name` in display form, normalised by the proposer. */
export interface ProposedRule {
  name: string;
  status: string;
  reason?: string;
  replacement?: string;
  min_version?: string;
  max_version?: string;
}

/** Who proposes and why (seed "ProposalContext"). */
export interface ProposalContext {
  /** `agent` for the approval-request flow, `operator` for dashboard and API proposals. */
  source: "agent" | "operator";
  project: string;
  requester: string;
  rationale: string;
  agent_model?: string;
  agent_version?: string;
  extra: Record<string, unknown>;
}

/** Status values of a proposal (seed "ProposalResult"); the wire contract owns the list. */
export { PROPOSAL_STATUSES, type ProposalStatus } from "../api/enums.ts";
import type { ProposalStatus } from "../api/enums.ts";

/** What a proposer did (seed "ProposalResult"). */
export interface ProposalResult {
  backend: string;
  status: ProposalStatus;
  url?: string;
  branch?: string;
  commit_sha?: string;
  detail: string;
}

/** Outcome of bringing merged registry changes onto `REGISTRY_PATH` (merge webhook). */
export type SyncOutcome =
  | { ok: true; detail: string }
  | { ok: false; detail: string; errors?: Array<{ path: string; message: string }> };

/**
 * A proposer. `propose` resolves to a result for every recoverable error
 * (status `failed` with a detail) and throws only for bugs.
 */
export interface Proposer {
  /** Backend name for `/health` and results (`log_only`, `local_file`, …). */
  readonly name: string;
  /**
   * Whether `propose` changes the live registry itself (`local_file`,
   * `local_git`). Such a proposer runs only on an operator's approval, never
   * on an approval request (SPEC §17.1). `false` means the proposal is
   * reviewed elsewhere (a pull request) or only logged, so an approval
   * request may fire it. A `module:` proposer that does not say is taken to
   * apply at once.
   */
  readonly appliesAtOnce: boolean;
  propose(rule: ProposedRule, context: ProposalContext): Promise<ProposalResult>;
  /**
   * Removes the rule for `name` (a revert of a change that added the
   * package, issue #31), with the same result statuses as `propose`. A
   * proposer without it cannot take a package out of the registry: the
   * operator edits the YAML.
   */
  withdraw?(name: string, context: ProposalContext): Promise<ProposalResult>;
  /**
   * Pulls merged changes onto `REGISTRY_PATH` before the merge webhook
   * reloads. Proposers without it get the generic `git pull --ff-only`.
   */
  syncMerged?(hint: { defaultBranch?: string }): Promise<SyncOutcome>;
  close?(): Promise<void>;
}

/** What built-in proposers are constructed with. */
export interface ProposerDeps {
  /** The `proposers` area's options. */
  options: ProposerOptions;
  /** The registry file local proposers write and the webhook syncs onto (`REGISTRY_PATH` or its default). */
  registryPath: string;
  /** The parsed settings, passed through untouched to `module:` classes (SPEC §15.29). */
  settings: ParsedSettings;
  log: Logger;
  /** The one reload routine (LiveRegistry.reload); local proposers call it after a write. */
  reload: () => Promise<ReloadResult>;
}

/** What `module:` proposer classes are constructed with (SPEC §15.8, §15.29). */
export interface ModuleProposerOptions {
  settings: ParsedSettings;
  log: Logger;
}
