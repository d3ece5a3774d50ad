/**
 * OpenAI Codex's `apply_patch` format: `*** Begin Patch`, then `*** Add File:`,
 * `*** Update File:` (hunks of ` `/`-`/`+` lines after `@@`) and
 * `*** Delete File:` sections, then `*** End Patch`. Parsed into per-file
 * operations and applied to a file's current text the way Codex matches
 * hunks (exact, then ignoring trailing, then surrounding whitespace).
 *
 * @module
 */

/** One file operation of a patch. */
export type PatchOperation =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo: string | null; hunks: PatchHunk[] };

/** One hunk: the lines it expects and the lines it leaves. */
export interface PatchHunk {
  oldLines: string[];
  newLines: string[];
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

/** The patch text inside `command` (a string or argv), or null when there is none. */
export function patchText(command: unknown): string | null {
  const parts = Array.isArray(command) ? command : [command];
  for (const part of parts) {
    if (typeof part !== "string") continue;
    const start = part.indexOf("*** Begin Patch");
    if (start < 0) continue;
    const end = part.indexOf("*** End Patch", start);
    return part.slice(start, end < 0 ? undefined : end + "*** End Patch".length);
  }
  return null;
}

/** Parses a patch into file operations (unknown lines are skipped). */
export function parsePatch(text: string): PatchOperation[] {
  const ops: PatchOperation[] = [];
  let current: PatchOperation | null = null;
  let hunk: PatchHunk | null = null;
  const addLines: string[] = [];
  const finish = () => {
    if (current?.kind === "add") {
      current.content = addLines.join("\n") + (addLines.length ? "\n" : "");
    }
    if (current?.kind === "update" && hunk && (hunk.oldLines.length || hunk.newLines.length)) {
      current.hunks.push(hunk);
    }
    if (current) ops.push(current);
    current = null;
    hunk = null;
    addLines.length = 0;
  };
  for (const line of text.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header) {
      finish();
      const path = header[2].trim();
      current = header[1] === "Add"
        ? { kind: "add", path, content: "" }
        : header[1] === "Delete"
        ? { kind: "delete", path }
        : { kind: "update", path, moveTo: null, hunks: [] };
      continue;
    }
    if (line.startsWith("*** End Patch") || line.startsWith("*** Begin Patch")) {
      if (line.startsWith("*** End Patch")) finish();
      continue;
    }
    if (current === null) continue;
    const op = current as PatchOperation;
    if (op.kind === "add") {
      if (line.startsWith("+")) addLines.push(line.slice(1));
      continue;
    }
    if (op.kind !== "update") continue;
    if (line.startsWith("*** Move to: ")) {
      op.moveTo = line.slice("*** Move to: ".length).trim();
      continue;
    }
    if (line.startsWith("@@")) {
      if (hunk && (hunk.oldLines.length || hunk.newLines.length)) op.hunks.push(hunk);
      hunk = { oldLines: [], newLines: [] };
      continue;
    }
    if (line === "*** End of File") continue;
    hunk ??= { oldLines: [], newLines: [] };
    if (line.startsWith("+")) hunk.newLines.push(line.slice(1));
    else if (line.startsWith("-")) hunk.oldLines.push(line.slice(1));
    else {
      const context = line.startsWith(" ") ? line.slice(1) : line;
      hunk.oldLines.push(context);
      hunk.newLines.push(context);
    }
  }
  finish();
  return ops;
}

const MATCHERS: Array<(line: string) => string> = [
  (l) => l,
  (l) => l.trimEnd(),
  (l) => l.trim(),
];

function findLines(lines: string[], wanted: string[], from: number): number {
  if (wanted.length === 0) return lines.length;
  for (const norm of MATCHERS) {
    const target = wanted.map(norm);
    for (let i = from; i + target.length <= lines.length; i++) {
      if (target.every((t, j) => norm(lines[i + j]) === t)) return i;
    }
  }
  return -1;
}

/** The text after applying an update's hunks, or null when a hunk does not match. */
export function applyHunks(current: string, hunks: PatchHunk[]): string | null {
  const trailingNewline = current.endsWith("\n");
  const lines = (trailingNewline ? current.slice(0, -1) : current).split("\n");
  let cursor = 0;
  for (const hunk of hunks) {
    const at = findLines(lines, hunk.oldLines, cursor);
    if (at < 0) return null;
    lines.splice(at, hunk.oldLines.length, ...hunk.newLines);
    cursor = at + hunk.newLines.length;
  }
  return lines.join("\n") + (trailingNewline || current === "" ? "\n" : "");
}
