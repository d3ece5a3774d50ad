/**
 * What the agent gate tells an agent, worded so it cannot be misread: each denied package with
 * its own reason and `policy request-approval` line, "choose the replacement" only when there is
 * one, and the same facts as one JSON line (package, version, category, replacement, threats)
 * that an agent can parse.
 *
 * @module
 */

import type { EvaluationResult } from "../api_client.ts";
import { denialSentence, requestCommand } from "../messages.ts";

/** A threat the server lists on an evaluation (optional field; see SPEC §17.2). */
export interface Threat {
  kind: string;
  id?: string;
  detail: string;
  similar_to?: string;
}

function threatsOf(result: EvaluationResult): Threat[] {
  const threats = (result as { threats?: unknown }).threats;
  return Array.isArray(threats) ? threats as Threat[] : [];
}

/** One denied package: why, what to use instead (if anything), and how to ask for it. */
export function deniedLines(result: EvaluationResult): string {
  const threats = threatsOf(result).map((t) =>
    t.similar_to ? `${t.detail} (did you mean ${t.similar_to}?)` : t.detail
  );
  const what = [denialSentence(result), ...threats.map((t) => `Threat: ${t}.`)];
  const ask = `if ${result.package} is truly needed, ask a human to run: ` +
    requestCommand(result.package);
  what.push(
    result.replacement
      ? `Choose the replacement ${result.replacement}, or ${ask}.`
      : `There is no approved replacement; ${ask}.`,
  );
  return what.join(" ");
}

/** The machine-readable line: `policyd: {"denied":[…]}`. */
export function deniedJson(denied: EvaluationResult[]): string {
  return "policyd: " + JSON.stringify({
    denied: denied.map((r) => ({
      package: r.package,
      version: r.version ?? null,
      category: r.denial_category ?? null,
      replacement: r.replacement ?? null,
      ...(threatsOf(r).length ? { threats: threatsOf(r) } : {}),
    })),
  });
}

/** The whole deny message for packages an action adds. */
export function denialMessage(subject: string, denied: EvaluationResult[]): string {
  return [
    `${subject} is blocked by the project's dependency policy.`,
    ...denied.map(deniedLines),
    deniedJson(denied),
  ].join("\n");
}

/** The message for input the gate could not read. */
export function unreadableMessage(problems: string[], failOpen: boolean): string {
  const list = [...new Set(problems)].join("; ");
  return failOpen
    ? `Warning: the dependency policy gate could not read all of this (${list}), so what it ` +
      `installs was not fully checked. Prefer explicit package names.`
    : `Dependency policy could not read this (${list}). fail_open is false for this project ` +
      `(.policy.toml), so it is blocked: use explicit package names and file contents.`;
}

/** The deny message for commands that would approve packages. */
export function approvalMessage(commands: string[]): string {
  return `This command would approve a package (${commands.join("; ")}). Coding agents may ` +
    `request approval (${requestCommand("<package>")}) but never approve; an operator reviews ` +
    `requests in the workshop.`;
}
