/**
 * Approval requests (seed "Good citizen"): persist the request and answer at
 * once. A request never approves itself (SPEC §17.1): with a proposer that
 * applies at once (`local_file`, `local_git`) it waits for an operator; a
 * proposer reviewed elsewhere (`github`) or only logging (`log_only`) is
 * fired in the background. A proposer that throws, fails or hangs is logged
 * and recorded on the request; it never changes the answer the agent
 * already got.
 *
 * @module
 */
import type { CallContext } from "../evaluation/service.ts";
import type { Logger } from "../log/logger.ts";
import type { LiveRegistry } from "../registry/live.ts";
import type {
  ProposalContext,
  ProposalResult,
  ProposedRule,
  Proposer,
} from "../proposers/types.ts";
import type { ApprovalRequest, ApprovalStatus, Store } from "../store/types.ts";
import { normalizeName } from "../core/names.ts";
import type { PackageRule } from "../core/types.ts";
import { changedRule, type ChangeLog } from "./change_log.ts";
import { type CollapsedRequest, collapseRequests } from "./collapse.ts";
import { guardedCall } from "./guarded_call.ts";
import { buildPendingQueue, type PendingItem } from "./pending.ts";

/** Dependencies of the approval service. */
export interface ApprovalServiceDeps {
  store: Pick<Store, "approvals" | "audit">;
  registry: Pick<LiveRegistry, "current">;
  proposer: Proposer;
  log: Logger;
  now?: () => Date;
  /** How long a proposer may take before its request is marked failed (default 5 min). */
  proposalTimeoutMs?: number;
  /** How long `close()` waits for running proposals (default 5 s). */
  closeGraceMs?: number;
  /** The registry change log; proposals are attributed and recorded there (issue #31). */
  changes?: ChangeLog;
}

/** Options of an operator's proposal. */
export interface ProposeOptions {
  /** The change-log entry this proposal reverts. */
  reverts?: number;
}

/** A new approval request as validated by the HTTP layer. */
export interface ApprovalInput {
  /** Normalised name. */
  package: string;
  /** The name as the caller wrote it (the rule's display form). */
  displayName: string;
  version: string | null;
  rationale: string;
}

/** The approval service. */
export interface ApprovalService {
  /**
   * Persists a request and resolves once the row is committed. A request
   * never changes the registry by itself (SPEC §17.1): with a proposer that
   * applies at once it is only queued for an operator's review; a proposer
   * whose proposal is reviewed elsewhere (github: the pull request) or only
   * logged is fired after the answer.
   */
  request(input: ApprovalInput, context: CallContext): Promise<ApprovalRequest>;
  /** Collapsed rows; `project` null = every project, `status` null = every status. */
  list(
    filter: { project: string | null; status: ApprovalStatus | null },
  ): Promise<CollapsedRequest[]>;
  get(id: number): Promise<ApprovalRequest | undefined>;
  /** The pending queue over the last `days` days. */
  pending(days: number): Promise<PendingItem[]>;
  /** Runs the proposer now (operator proposals), with the same error and time-out handling. */
  propose(
    rule: ProposedRule,
    context: ProposalContext,
    options?: ProposeOptions,
  ): Promise<ProposalResult>;
  /**
   * Removes a package's rule through the proposer (a revert of an addition);
   * `failed` when the proposer cannot remove rules.
   */
  withdraw(
    name: string,
    context: ProposalContext,
    options?: ProposeOptions,
  ): Promise<ProposalResult>;
  /** Resolves when no background proposal is running (tests, shutdown). */
  idle(): Promise<void>;
  /** Waits briefly for running proposals, then stops their timers. */
  close(): Promise<void>;
}

/** Longest rationale copied into a rule's `reason`. */
const MAX_REASON = 500;

/**
 * Creates the approval service.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { CallContext } from "../evaluation/service.ts";
 * import type { Proposer } from "../proposers/types.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import type { Store } from "../store/types.ts";
 * declare const store: Store;
 * declare const live: LiveRegistry;
 * declare const proposer: Proposer;
 * declare const context: CallContext;
 * const approvals = createApprovalService({ store, registry: live, proposer, log });
 * const input = { package: "left-pad", displayName: "left_pad", version: null, rationale: "…" };
 * const row = await approvals.request(input, context);
 * ```
 */
export function createApprovalService(deps: ApprovalServiceDeps): ApprovalService {
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.proposalTimeoutMs ?? 300_000;
  const running = new Set<Promise<void>>();
  type Timer = ReturnType<typeof setTimeout>;
  const timers = new Set<Timer>();
  let closed = false;

  /** Runs the proposer, turning throws, junk and time-outs into `failed` results. */
  function runProposer(rule: ProposedRule, context: ProposalContext): Promise<ProposalResult> {
    return guarded(() => deps.proposer.propose(rule, context));
  }

  /** Runs a proposer call with the change log's attribution, then records what did not apply. */
  async function recorded(
    name: string,
    after: ProposedRule | null,
    context: ProposalContext,
    options: ProposeOptions,
    call: () => Promise<ProposalResult>,
  ): Promise<ProposalResult> {
    const changes = deps.changes;
    if (!changes) return call();
    const key = normalizeName(name.trim());
    const snapshot = deps.registry.current();
    const before = changedRule(snapshot.byName.get(key));
    const who = {
      actor: context.requester,
      proposer: deps.proposer.name,
      reverts: options.reverts ?? null,
    };
    const result = await changes.attributed(key, who, call);
    const proposed = after ? { ...changedRule(after as PackageRule)!, name: key } : null;
    await changes.recordProposal({
      name: key,
      before,
      after: proposed,
      result,
      who,
      version: snapshot.registry.version,
    });
    return result;
  }

  /** A proposer call with throws, junk and time-outs turned into `failed` results. */
  const guarded = (call: () => Promise<ProposalResult>) =>
    guardedCall(call, { backend: deps.proposer.name, timeoutMs, timers });

  async function proposeFor(request: ApprovalRequest, displayName: string): Promise<void> {
    const log = deps.log.child({ approval_request: request.id, package: request.package });
    const existing = deps.registry.current().byName.get(request.package);
    let result: ProposalResult | { status: "skipped" | "queued"; detail: string };
    if (existing) {
      // Never let an agent's request rewrite an operator's rule (a banned package stays banned).
      result = {
        status: "skipped",
        detail: `${request.package} is already in the registry as ${existing.status}; ` +
          "the proposer was not fired (an operator changes existing rules through POST /registry/proposals)",
      };
    } else if (deps.proposer.appliesAtOnce) {
      // A request never changes the live registry by itself (SPEC §17.1).
      result = {
        status: "queued",
        detail: `queued for operator review: the ${deps.proposer.name} proposer applies rules at ` +
          "once, so it runs only when an operator approves (workshop, POST /registry/proposals " +
          "or `policy approve`); GET /registry/pending lists the request",
      };
    } else {
      const rule: ProposedRule = {
        name: displayName,
        status: "approved",
        reason: `Requested by ${request.project}: ${request.rationale}`.slice(0, MAX_REASON),
      };
      const context: ProposalContext = {
        source: "agent",
        project: request.project,
        requester: request.requester,
        rationale: request.rationale,
        ...(request.agent_model ? { agent_model: request.agent_model } : {}),
        ...(request.agent_version ? { agent_version: request.agent_version } : {}),
        extra: { approval_request_id: request.id, version: request.version },
      };
      result = await recorded(rule.name, rule, context, {}, () => runProposer(rule, context));
    }
    if (result.status === "failed") {
      log.warn("proposer failed for an approval request", { ...result });
    } else log.info("proposer answered an approval request", { ...result });
    try {
      await deps.store.approvals.recordProposal(request.id, result.status, result.detail);
    } catch (error) {
      log.error("cannot record the proposal outcome", { error: (error as Error).message });
    }
  }

  function schedule(task: () => Promise<void>): void {
    // After the response: the handler returns first, the proposer starts on a later turn.
    const done = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(task).catch(
      (error) => {
        deps.log.error("background proposal crashed", { error: (error as Error).message });
      },
    );
    running.add(done);
    done.finally(() => running.delete(done));
  }

  return {
    async request(input, context) {
      const row = await deps.store.approvals.create({
        package: input.package,
        version: input.version,
        project: context.project,
        requester: context.requester,
        rationale: input.rationale,
        agent_model: context.agent_model,
        agent_version: context.agent_version,
        source: context.source,
      });
      if (!closed) schedule(() => proposeFor(row, input.displayName));
      return row;
    },
    async list(filter) {
      const rows = await deps.store.approvals.list({
        ...(filter.project ? { project: filter.project } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      });
      return collapseRequests(rows);
    },
    get: (id) => deps.store.approvals.get(id),
    async pending(days) {
      const since = new Date(now().getTime() - days * 86_400_000).toISOString();
      const [requests, groups] = await Promise.all([
        deps.store.approvals.list({}),
        deps.store.audit.group(
          { since, verdicts: ["ALLOWED", "DENIED", "PROVISIONALLY_ALLOWED"] },
          ["package", "verdict", "source"],
        ),
      ]);
      const snapshot = deps.registry.current();
      return buildPendingQueue(requests, groups, (name) => snapshot.byName.has(name));
    },
    propose: (rule, context, options = {}) =>
      recorded(rule.name, rule, context, options, () => runProposer(rule, context)),
    withdraw: (name, context, options = {}) => {
      const withdraw = deps.proposer.withdraw;
      const call = withdraw
        ? () => guarded(() => withdraw.call(deps.proposer, name, context))
        : () =>
          Promise.resolve<ProposalResult>({
            backend: deps.proposer.name,
            status: "failed",
            detail: `the ${deps.proposer.name} proposer cannot remove a rule; remove ${name} ` +
              "from the registry YAML and reload",
          });
      return recorded(name, null, context, options, call);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    async close() {
      closed = true;
      let grace: Timer | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((resolve) => (grace = setTimeout(resolve, deps.closeGraceMs ?? 5_000))),
      ]);
      clearTimeout(grace);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
