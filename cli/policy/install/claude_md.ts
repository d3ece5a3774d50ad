/**
 * The `CLAUDE.md` section telling the assistant about the dependency policy,
 * delimited by markers, created or appended once.
 *
 * @module
 */

import { join } from "node:path";
import { readTextOrNull } from "../read_text.ts";

/** Opening marker of our section. */
export const SECTION_BEGIN = "<!-- policyd:begin -->";
/** Closing marker of our section. */
export const SECTION_END = "<!-- policyd:end -->";

/** The section text for a project and server. */
export function sectionText(project: string, serverUrl: string, command = "policy"): string {
  const how = command === "policy"
    ? ""
    : `\nOn this machine \`policy\` is run as: \`${command}\`\n`;
  return `${SECTION_BEGIN}
## Dependency policy (policyd)

This project's Python dependencies are governed by policyd (${serverUrl}, project \`${project}\`).

- Before adding a package to \`pyproject.toml\`, check it: \`policy check <package> [--version X]\`
  (exit 0 allowed, 1 provisionally allowed, 2 denied).
- Installing a DENIED package (\`pip install\`, \`uv add\`, \`poetry add\`, …) or adding one to
  \`pyproject.toml\` or a requirements file is blocked by a hook; use the replacement named in
  the message.
- If a package is needed anyway, ask for review:
  \`policy request-approval <package> --rationale "<why>"\`.
- \`policy audit\` evaluates every runtime dependency; \`policy status\` shows the setup.
${how}${SECTION_END}
`;
}

/**
 * Creates `CLAUDE.md` with the section, or appends the section once.
 * Returns `[path, written]`; `written` is false when the section existed.
 */
export function installClaudeMd(
  root: string,
  project: string,
  serverUrl: string,
  command = "policy",
): [string, boolean] {
  const path = join(root, "CLAUDE.md");
  const existing = readTextOrNull(path);
  if (existing?.includes(SECTION_BEGIN)) return [path, false];
  const section = sectionText(project, serverUrl, command);
  const text = existing === null || existing === ""
    ? section
    : existing + (existing.endsWith("\n") ? "\n" : "\n\n") + section;
  Deno.writeTextFileSync(path, text);
  return [path, true];
}

/** Removes our section (and the file when nothing else is left). */
export function uninstallClaudeMd(root: string): boolean {
  const path = join(root, "CLAUDE.md");
  const existing = readTextOrNull(path);
  if (existing === null) return false;
  const start = existing.indexOf(SECTION_BEGIN);
  const end = existing.indexOf(SECTION_END);
  if (start < 0 || end < start) return false;
  const rest = (existing.slice(0, start).replace(/\n+$/, "\n") +
    existing.slice(end + SECTION_END.length).replace(/^\n+/, "")).replace(/^\n+$/, "");
  if (rest.trim() === "") Deno.removeSync(path);
  else Deno.writeTextFileSync(path, rest);
  return true;
}
