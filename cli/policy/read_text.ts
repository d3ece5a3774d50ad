/**
 * Reading a text file that may be missing, for the commands and installers
 * that treat an unreadable file as an absent one.
 *
 * @module
 */

/**
 * The text of `path`, or null when it cannot be read (missing, a directory,
 * no permission).
 *
 * @example
 * ```ts
 * import { readTextOrNull } from "./read_text.ts";
 * readTextOrNull("/no/such/file"); // null
 * ```
 */
export function readTextOrNull(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}
