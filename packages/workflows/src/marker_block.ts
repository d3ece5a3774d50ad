/**
 * Generated blocks inside user-owned files (AGENTS.md, GEMINI.md).
 *
 * @module
 */

/** The comment that opens the generated block. */
export const BLOCK_BEGIN = "<!-- BEGIN generated:workflows -->";
/** The comment that closes the generated block. */
export const BLOCK_END = "<!-- END generated:workflows -->";

/**
 * Returns `existing` with the text between the marker comments replaced by
 * `content` (markers kept), or with a new block appended when there is none;
 * everything outside the block is preserved byte for byte. Throws when the
 * file has a BEGIN marker without an END marker, rather than guess where the
 * user's text resumes.
 *
 * @example
 * ```ts
 * import { replaceBlock } from "./marker_block.ts";
 * replaceBlock("# Notes\n", "workflows here");
 * // "# Notes\n\n<!-- BEGIN generated:workflows -->\nworkflows here\n<!-- END generated:workflows -->\n"
 * ```
 */
export function replaceBlock(existing: string | undefined, content: string): string {
  const block = `${BLOCK_BEGIN}\n${content.replace(/\n+$/, "")}\n${BLOCK_END}`;
  if (existing === undefined || existing.trim() === "") return `${block}\n`;
  const begin = existing.indexOf(BLOCK_BEGIN);
  if (begin === -1) return `${existing.replace(/\n*$/, "")}\n\n${block}\n`;
  const end = existing.indexOf(BLOCK_END, begin);
  if (end === -1) {
    throw new Error(
      `Cannot update the generated block: "${BLOCK_BEGIN}" has no matching "${BLOCK_END}"`,
    );
  }
  return existing.slice(0, begin) + block + existing.slice(end + BLOCK_END.length);
}
