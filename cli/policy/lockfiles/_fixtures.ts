/**
 * Test helpers for the lock-file parsers: the real fixture files and an
 * in-memory file system for include tests. Imported by tests only.
 *
 * @module
 */

import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { RequirementsContext } from "./requirements.ts";

/** Absolute path of tests/fixtures/lockfiles. */
export const LOCKFILES = fileURLToPath(
  new URL("../../../tests/fixtures/lockfiles/", import.meta.url),
).replace(/\/$/, "");

/** Text of a fixture under tests/fixtures/lockfiles. */
export function fixture(path: string): string {
  return Deno.readTextFileSync(`${LOCKFILES}/${path}`);
}

/** A requirements context over a map of absolute path → text (root `/proj`). */
export function memoryContext(files: Record<string, string>, root = "/proj"): RequirementsContext {
  return {
    read: (path) => {
      if (!(path in files)) throw new Deno.errors.NotFound(path);
      return files[path];
    },
    label: (path) => relative(root, path),
    root,
  };
}

/** A requirements context over the real file system, labels relative to `root`. */
export function diskContext(root: string): RequirementsContext {
  return { read: (p) => Deno.readTextFileSync(p), label: (p) => relative(root, p), root };
}
