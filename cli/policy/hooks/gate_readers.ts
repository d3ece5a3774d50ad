/**
 * What a tool call adds, read from manifests and shell commands: the part of
 * the agent gate (`gate.ts`) that needs the requirement parser and the shell
 * parser, loaded only for a manifest edit or a shell command
 * (docs/performance.md, "Client start-up").
 *
 * @module
 */

import { basename } from "node:path";
import { diffDependencies, pinnedVersion } from "../pyproject.ts";
import type { Dependencies } from "../pyproject.ts";
import {
  manifestDependencies,
  type ManifestKind,
  manifestKind,
  manifestReading,
} from "../agents/manifests.ts";
import { readCommand } from "../agents/shell.ts";
import type { ToolAction } from "../agents/payload.ts";
import type { GateDeps } from "./gate.ts";
import { exactVersion, type RangeQuery, rangeQuery } from "../range_query.ts";

export { prepareReaders } from "../lockfiles/manifest_readers.ts";

/** A package the action adds: normalised name → spec as written. */
export type Wanted = Map<string, { spec: string; version: string | null }>;

function safeDeps(kind: ManifestKind, text: string | null): Dependencies | null {
  if (text === null) return new Map();
  try {
    return manifestDependencies(kind, text);
  } catch {
    return null;
  }
}

/** Packages added or changed by file changes, and the manifests they touch; null: no manifest. */
export function addedByFiles(
  action: Extract<ToolAction, { kind: "files" }>,
  deps: GateDeps,
): { wanted: Wanted; files: string[]; loose: Set<string>; problems: string[] } | null {
  const wanted: Wanted = new Map();
  const loose = new Set<string>();
  const files: string[] = [];
  const problems: string[] = [];
  for (const change of action.changes) {
    const kind = manifestKind(change.path);
    if (kind === null) continue;
    files.push(basename(change.path));
    const current = deps.readFile(change.readFrom ?? change.path);
    const after = change.after(current);
    if (after === null) {
      // Not simulable here (the editor may match loosely): judge the lines it inserts.
      if (change.inserted) {
        for (const [name, spec] of insertedRequirements(kind, change.inserted, current)) {
          if (!wanted.has(name)) wanted.set(name, { spec, version: pinnedVersion(spec) });
          loose.add(name);
        }
      }
      continue;
    }
    const before = change.readFrom ? deps.readFile(change.path) : current;
    const reading = readAfter(kind, after, basename(change.path), before);
    if (typeof reading === "string") {
      problems.push(reading);
      continue;
    }
    problems.push(...reading.problems);
    const afterDeps = reading.packages;
    const [added] = diffDependencies(safeDeps(kind, before) ?? new Map(), afterDeps);
    for (const [name, spec] of added) {
      if (!wanted.has(name)) wanted.set(name, { spec, version: pinnedVersion(spec) });
    }
  }
  return files.length ? { wanted, files, loose, problems } : null;
}

/** A warning without its line number, to tell the ones an edit adds from those already there. */
const withoutLine = (warning: string) => warning.replace(/ line \d+: /, ": ");

/**
 * The dependencies of a manifest's text after an edit, with the parts the
 * edit made unreadable (warnings the text before did not have); a string
 * when the whole file cannot be read.
 */
function readAfter(
  kind: ManifestKind,
  after: string,
  file: string,
  before: string | null,
): { packages: Dependencies; problems: string[] } | string {
  let reading;
  try {
    reading = manifestReading(kind, after, file);
  } catch (error) {
    return `${file} cannot be read: ${(error as Error).message}`;
  }
  let old = new Set<string>();
  try {
    if (before !== null) {
      old = new Set(manifestReading(kind, before, file).warnings.map(withoutLine));
    }
  } catch {
    // the text before did not parse: every warning is new
  }
  return {
    packages: reading.packages,
    problems: reading.warnings.filter((w) => !old.has(withoutLine(w))),
  };
}

/** A quoted PEP 508 string alone on a line (a TOML array item), or an item inside `[...]`. */
const QUOTED_ITEM =
  /^\s*(?:[A-Za-z_-]+\s*=\s*\[)?\s*["']([A-Za-z0-9][^"']*)["']\s*,?\s*\]?\s*(#.*)?$/;

/**
 * Requirements among the lines a replacement inserts that it does not also
 * take out and the file does not already declare: requirement lines of a
 * requirements file, quoted array items of a pyproject.toml.
 */
export function insertedRequirements(
  kind: ManifestKind,
  inserted: { added: string; removed: string },
  current: string | null,
): Dependencies {
  const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const removed = new Set(lines(inserted.removed));
  const fresh = lines(inserted.added).filter((l) => !removed.has(l));
  let found: Dependencies;
  if (kind === "requirements") {
    found = manifestDependencies("requirements", fresh.join("\n"));
  } else if (kind !== "pyproject") {
    // setup.py, setup.cfg, Pipfile, …: the inserted lines read as that kind, else as requirements.
    found = safeDeps(kind, fresh.join("\n")) ?? new Map();
    for (const line of fresh) {
      const item = QUOTED_ITEM.exec(line);
      if (!item) continue;
      for (const [name, spec] of manifestDependencies("requirements", item[1])) {
        if (!found.has(name)) found.set(name, spec);
      }
    }
  } else {
    found = new Map();
    // A sketch of the whole file (VS Code's insert_edit_into_file) parses as TOML: its
    // `# ...existing code...` markers are comments. A fragment does not, and is read by lines.
    for (const text of [fresh.join("\n"), `[project]\n${fresh.join("\n")}`]) {
      try {
        for (const [name, spec] of manifestDependencies("pyproject", text)) found.set(name, spec);
      } catch {
        // not TOML on its own
      }
      if (found.size) break;
    }
    for (const line of fresh) {
      const item = QUOTED_ITEM.exec(line);
      if (!item) continue;
      const deps = manifestDependencies("requirements", item[1]);
      for (const [name, spec] of deps) if (!found.has(name)) found.set(name, spec);
    }
  }
  const existing = safeDeps(kind, current) ?? new Map();
  return new Map([...found].filter(([name, spec]) => existing.get(name) !== spec));
}

/** What a shell command does that the gate judges. */
export interface CommandFindings {
  /** Packages installed or added to a manifest. */
  wanted: Wanted;
  /** Names read loosely (only ever deny). */
  loose: Set<string>;
  /** Names guessed from a VCS URL: only the registry's own rules may deny them. */
  guessed: Set<string>;
  /** Manifests the command writes. */
  files: string[];
  /** Paths it writes, moves or removes. */
  touched: string[];
  /** Package index URLs it points installers at. */
  indexes: string[];
  /** Commands that would approve packages. */
  approvals: string[];
  /** Commands that would switch the gate off. */
  disables: string[];
  /** What could not be read. */
  problems: string[];
}

/** What a shell command installs, writes and names; null when it does none of that. */
export function addedByCommand(
  command: string,
  cwd: string,
  deps: GateDeps,
): CommandFindings | null {
  const reading = readCommand(command, cwd, deps.readFile);
  const wanted: Wanted = new Map();
  const loose = new Set<string>();
  const guessed = new Set<string>();
  for (const r of reading.packages) {
    if (!wanted.has(r.name)) wanted.set(r.name, { spec: r.spec, version: r.version });
    if (r.loose) loose.add(r.name);
    if (r.guessed) guessed.add(r.name);
  }
  // A name read for certain anywhere in the command is no guess.
  for (const r of reading.packages) if (!r.guessed) guessed.delete(r.name);
  let files: string[] = [];
  if (reading.changes.length) {
    const written = addedByFiles({ kind: "files", changes: reading.changes }, deps);
    files = written?.files ?? [];
    reading.problems.push(...(written?.problems ?? []));
    for (const [name, w] of written?.wanted ?? []) if (!wanted.has(name)) wanted.set(name, w);
  }
  const findings = { wanted, loose, guessed, files, ...reading };
  const relevant = wanted.size || files.length || reading.touched.length ||
    reading.indexes.length || reading.approvals.length || reading.disables.length ||
    reading.problems.length;
  return relevant ? findings : null;
}

/** The batch queries of what an action adds; a range goes as written, judged at the release it installs. */
export function queriesOf(wanted: Wanted): RangeQuery[] {
  return [...wanted].map(([name, w]) => rangeQuery(name, w.spec, exactVersion(w.spec, w.version)));
}
