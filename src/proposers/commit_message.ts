/**
 * Commit messages, pull-request titles and bodies of proposals: what the
 * reviewer reads. Agent-supplied text is quoted, never interpreted.
 *
 * @module
 */
import type { ProposalContext } from "./types.ts";

/** One-line subject of a proposal commit. */
export function proposalSubject(rule: { name: string; status: string }): string {
  return `policy: ${rule.status} ${rule.name}`;
}

/** Who asked and why, as Markdown-friendly lines. */
export function proposalBody(
  rule: { name: string; status: string },
  context: ProposalContext,
): string {
  const lines = [
    `Proposed rule: \`${rule.name}\` → \`${rule.status}\``,
    "",
    `- source: ${context.source}`,
    `- project: ${context.project}`,
    `- requester: ${context.requester}`,
  ];
  if (context.agent_model) {
    lines.push(
      `- agent: ${context.agent_model}${context.agent_version ? ` ${context.agent_version}` : ""}`,
    );
  }
  if (context.rationale) {
    lines.push("", "Rationale:", "", ...context.rationale.split("\n").map((l) => `> ${l}`));
  }
  return lines.join("\n");
}
