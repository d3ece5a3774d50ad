/**
 * The workflow ID rule (SPEC §15.17 and §15.26).
 *
 * @module
 */

const APOSTROPHES = /['\u2019]/g;
const NON_ALNUM_RUNS = /[^A-Za-z0-9]+/g;

/**
 * Derives the ID of a workflow from its name: apostrophes (`'` and `’`) are
 * dropped, every other run of characters that are not ASCII letters or digits
 * becomes one `_`, leading and trailing `_` are trimmed and the result is
 * lowercased. Throws when nothing alphanumeric is left, because an empty ID
 * cannot anchor a section.
 *
 * @example
 * ```ts
 * import { workflowId } from "./workflow_id.ts";
 * workflowId("Don't re-check!"); // "dont_re_check"
 * ```
 */
export function workflowId(name: string): string {
  const id = name
    .replace(APOSTROPHES, "")
    .replace(NON_ALNUM_RUNS, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  if (id === "") {
    throw new TypeError(
      `Cannot derive a workflow ID from the name "${name}": it has no letters or digits`,
    );
  }
  return id;
}
