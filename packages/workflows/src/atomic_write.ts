/**
 * Atomic file replacement.
 *
 * @module
 */
import { dirname, join } from "node:path";

/**
 * Writes `text` to a temporary file next to `path`, then renames it over
 * `path`, so readers (a server serving the document, a concurrent run) see the
 * old or the new content, never a partial file.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./atomic_write.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/workflows.md`, "# API Workflows\n");
 * ```
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const temporary = join(dir, `.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(temporary, text);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}
