/**
 * The review lifecycle of issue #31: an operator rejects (with a reason) or
 * dismisses a pending approval request, and reverts a change of the live
 * registry through the proposer, as a new change. Every step lands in the
 * registry change log.
 *
 * @module
 */
import type { ProposalContext, ProposalResult } from "../proposers/types.ts";
import type { LiveRegistry } from "../registry/live.ts";
import type { ApprovalRequest, RegistryChange, Store } from "../store/types.ts";
import { changedRule, type ChangeLog } from "./change_log.ts";
import type { ApprovalService } from "./service.ts";

/** Dependencies of the review lifecycle. */
export interface ReviewDeps {
  store: Pick<Store, "approvals" | "changes">;
  registry: Pick<LiveRegistry, "current">;
  approvals: Pick<ApprovalService, "propose" | "withdraw">;
  changes: ChangeLog;
  now: () => Date;
}

/** A step's outcome: its value, or why it cannot be taken (HTTP status and detail). */
export type ReviewOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: 404 | 409; detail: string };

/** The review lifecycle. */
export interface ReviewLifecycle {
  /** Closes a pending request as rejected or dismissed, and logs the decision. */
  decide(
    id: number,
    decision: { status: "REJECTED" | "DISMISSED"; reason: string; by: string },
  ): Promise<ReviewOutcome<ApprovalRequest>>;
  /**
   * Reverts a change that reached the live registry: the rule before it is
   * proposed again (or the rule removed when the change added the package).
   */
  revert(
    id: number,
    context: ProposalContext,
  ): Promise<ReviewOutcome<{ result: ProposalResult; change: RegistryChange }>>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Creates the review lifecycle.
 *
 * @example
 * ```ts
 * declare const deps: ReviewDeps;
 * const review = createReviewLifecycle(deps);
 * await review.decide(3, { status: "REJECTED", reason: "unmaintained", by: "alice" });
 * ```
 */
export function createReviewLifecycle(deps: ReviewDeps): ReviewLifecycle {
  return {
    async decide(id, decision) {
      const existing = await deps.store.approvals.get(id);
      if (!existing) return { ok: false, status: 404, detail: `no approval request ${id}` };
      const closed = () => ({
        ok: false as const,
        status: 409 as const,
        detail: `approval request ${id} is already ${existing.status}; only a PENDING_REVIEW ` +
          "request can be rejected or dismissed",
      });
      if (existing.status !== "PENDING_REVIEW") return closed();
      const row = await deps.store.approvals.decide(id, {
        ...decision,
        at: deps.now().toISOString(),
      });
      if (!row || row.status !== decision.status || row.decided_by !== decision.by) return closed();
      const snapshot = deps.registry.current();
      await deps.changes.recordDecision({
        package: row.package,
        kind: decision.status === "REJECTED" ? "rejected" : "dismissed",
        before: changedRule(snapshot.byName.get(row.package)),
        actor: decision.by,
        proposer: null,
        previous_version: snapshot.registry.version,
        registry_version: snapshot.registry.version,
        request_id: row.id,
        detail: decision.reason,
      });
      return { ok: true, value: row };
    },
    async revert(id, context) {
      const change = await deps.store.changes.get(id);
      if (!change) return { ok: false, status: 404, detail: `no registry change ${id}` };
      if (change.kind !== "applied" && change.kind !== "reloaded") {
        return {
          ok: false,
          status: 409,
          detail: `change ${id} is ${change.kind}: only a change that reached the live ` +
            "registry (applied or reloaded) can be reverted",
        };
      }
      const current = changedRule(deps.registry.current().byName.get(change.package));
      if (!same(current, change.after)) {
        return {
          ok: false,
          status: 409,
          detail: `the rule of ${change.package} changed after change ${id} ` +
            `(now ${current ? current.status : "not in the registry"}); revert the newer change`,
        };
      }
      const options = { reverts: id };
      const result = change.before
        ? await deps.approvals.propose({ ...change.before }, context, options)
        : await deps.approvals.withdraw(change.package, context, options);
      return { ok: true, value: { result, change } };
    },
  };
}
