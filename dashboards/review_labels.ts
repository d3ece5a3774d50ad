/**
 * Human labels of the review lifecycle's enumerations (issue #31): the
 * pages show these, with the raw value in a tooltip.
 *
 * @module
 */
import type { ApprovalStatus, ChangeKind } from "../src/api/enums.ts";

/** Labels of approval-request statuses. */
export const REQUEST_STATUS_LABELS: Record<ApprovalStatus, string> = {
  PENDING_REVIEW: "Pending review",
  APPROVED: "Approved",
  REJECTED: "Rejected",
  DISMISSED: "Dismissed",
};

/** Labels of change-log kinds. */
export const CHANGE_KIND_LABELS: Record<ChangeKind, string> = {
  applied: "Applied",
  opened: "Pull request opened",
  amended: "Pull request updated",
  logged: "Logged only",
  reloaded: "Reloaded from the registry file",
  rejected: "Request rejected",
  dismissed: "Request dismissed",
};

/** Labels of what the proposer did for a request. */
export const PROPOSAL_OUTCOME_LABELS: Record<string, string> = {
  queued: "waits for an operator",
  skipped: "already in the registry",
  opened: "pull request opened",
  amended: "pull request updated",
  applied: "applied",
  logged: "only logged",
  failed: "proposer failed",
};

/** Relative age of an instant ("5 min ago", "3 h ago", "2 days ago"). */
export function age(iso: string, now: Date): string {
  const ms = now.getTime() - new Date(iso).getTime();
  if (!Number.isFinite(ms)) return iso;
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/**
 * What a proposal does with the configured proposer, in words ("applied to
 * the registry file at once"); the proposer's name stays beside it.
 */
export function proposerSentence(name: string): string {
  switch (name) {
    case "local_file":
      return "a rule is written to the registry file and is live at once";
    case "local_git":
      return "a rule is committed to the registry's git repository and is live at once";
    case "github":
      return "a rule opens a pull request and goes live after the merge";
    case "log_only":
      return "a rule is only logged; nothing changes until someone edits the registry";
    default:
      return `a rule goes to the "${name}" proposer`;
  }
}
