/**
 * Small Markdown helpers for the renderer: fences, table cells, one-line text
 * and GitHub-style heading anchors.
 *
 * @module
 */

/**
 * Wraps `content` in a code fence longer than any backtick run inside it.
 *
 * @example
 * ```ts
 * import { fence } from "./markdown.ts";
 * fence("json", "{}"); // "```json\n{}\n```"
 * ```
 */
export function fence(lang: string, content: string): string {
  const longest = Math.max(2, ...Array.from(content.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${lang}\n${content}\n${ticks}`;
}

/**
 * Collapses whitespace (including newlines) to single spaces, so a value fits
 * on a heading or list line.
 *
 * @example
 * ```ts
 * import { oneLine } from "./markdown.ts";
 * oneLine(" a\n b "); // "a b"
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Escapes a value for a table cell (one line, `|` escaped).
 *
 * @example
 * ```ts
 * import { cell } from "./markdown.ts";
 * cell("a|b"); // "a\\|b"
 * ```
 */
export function cell(text: string): string {
  return oneLine(text).replace(/\|/g, "\\|");
}

/**
 * The anchor GitHub-flavoured renderers give a heading: lowercased, characters
 * other than letters, marks, digits, `_`, `-` and spaces removed, spaces
 * turned into `-` (the github-slugger rule, written out because the library
 * takes no dependency for it). Pass a `used` set to get `-1`, `-2` suffixes
 * for repeated headings.
 *
 * @example
 * ```ts
 * import { headingAnchor } from "./markdown.ts";
 * headingAnchor("Workflow: Don't re-check!"); // "workflow-dont-re-check"
 * ```
 */
export function headingAnchor(heading: string, used?: Set<string>): string {
  const base = heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
  if (!used) return base;
  let anchor = base;
  for (let n = 1; used.has(anchor); n++) anchor = `${base}-${n}`;
  used.add(anchor);
  return anchor;
}
