/**
 * JSON configuration files of the agents, edited in place: read as an object
 * (a file that is not a JSON object is never clobbered), changed by a pure
 * function, written only when the value changed, removed when left empty.
 *
 * @module
 */

import { dirname } from "node:path";
import { ClientError } from "../exit_codes.ts";

/** A JSON object. */
export type Json = Record<string, unknown>;

/** Reads `path` as a JSON object; null when absent; a `config` error when not an object. */
export function readJsonObject(path: string): Json | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new ClientError(
    "config",
    `Cannot update ${path}: it is not a JSON object; fix or remove it`,
  );
}

function removeEmptyDir(dir: string): void {
  try {
    Deno.removeSync(dir); // only succeeds when the directory is empty
  } catch {
    // other files live there; keep it
  }
}

/**
 * Applies `change` to the object in `path` (an absent file is `{}`) and
 * writes the result when it differs. An empty result removes the file (and
 * its directory when empty) if the file existed. Returns whether anything changed.
 */
export function updateJsonFile(path: string, change: (value: Json) => Json): boolean {
  const before = readJsonObject(path);
  const after = change(structuredClone(before ?? {}));
  if (JSON.stringify(after) === JSON.stringify(before ?? {})) return false;
  if (Object.keys(after).length === 0) {
    if (before === null) return false;
    Deno.removeSync(path);
    removeEmptyDir(dirname(path));
    return true;
  }
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, JSON.stringify(after, null, 2) + "\n");
  return true;
}

/** Removes the file at `path` when it exists (and its directory when left empty). */
export function removeFile(path: string): boolean {
  try {
    Deno.removeSync(path);
  } catch {
    return false;
  }
  removeEmptyDir(dirname(path));
  return true;
}
