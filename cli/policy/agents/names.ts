/**
 * The agents the client gates, by the names `policy init --agents` and
 * `policy hook --agent` take. No imports: the command line reads it at start-up.
 *
 * @module
 */

/** Agents `policy init --agents` installs hooks for. */
export const AGENTS = ["claude", "cursor", "gemini", "copilot", "codex"] as const;
/** One of {@link AGENTS}. */
export type Agent = typeof AGENTS[number];

/** Parses `claude,cursor` (or `all`) into agent names; throws an Error naming the bad one. */
export function parseAgents(value: string): Agent[] {
  const names = value.split(",").map((n) => n.trim().toLowerCase()).filter(Boolean);
  if (names.includes("all")) return [...AGENTS];
  const unknown = names.filter((n) => !(AGENTS as readonly string[]).includes(n));
  if (unknown.length || names.length === 0) {
    throw new Error(
      `unknown agent "${unknown[0] ?? value}"; choose from ${AGENTS.join(", ")} or all`,
    );
  }
  return [...new Set(names)] as Agent[];
}
