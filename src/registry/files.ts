/**
 * Atomic file writes: a temporary file in the same directory, then rename,
 * so a crash never leaves a truncated registry.
 *
 * @module
 */
import { dirname, join } from "node:path";

/** Writes `text` to `path` atomically (temp file + rename in the same directory). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const temp = join(dir, `.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
