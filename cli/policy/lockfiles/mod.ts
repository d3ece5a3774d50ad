/**
 * Reading what a project installs: which files to read (discovery), which
 * parser reads each (by name, else by content), and which entries are direct
 * (companion manifest, else the file's own root entry or annotations).
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";
import { ClientError } from "../exit_codes.ts";
import { manifestDirectNames, pyprojectName } from "./manifest.ts";
import { declaredEntry } from "./declared.ts";
import { manifestFormatByName, readManifest } from "./manifest_readers.ts";
import { parsePdmLock } from "./pdm.ts";
import { parsePipfileLock } from "./pipfile.ts";
import { parsePoetryLock } from "./poetry.ts";
import { parsePylock } from "./pylock.ts";
import { parsePyprojectInput } from "./pyproject_input.ts";
import { parseRequirements, type ReadText, requirementNames } from "./requirements.ts";
import type { LockEntry, LockFormat, ParsedLock } from "./types.ts";
import { parseUvLock } from "./uv.ts";
import { isTable, readToml, table } from "./values.ts";

export type { LockEntry, LockFormat } from "./types.ts";
export { LOCK_FORMATS } from "./types.ts";

/** A lock entry with its direct/transitive flag settled. */
export type AuditedEntry = LockEntry & { direct: boolean };

/** One file read for an audit. */
export interface LoadedFile {
  /** The file as shown in results. */
  file: string;
  format: LockFormat;
  /** The companion manifest that told direct dependencies, as shown, or null. */
  manifest: string | null;
  entries: AuditedEntry[];
  /** `FILE line N: …` for each part that could not be read (the rest was audited). */
  warnings?: string[];
}

/** File access of the loader (tests pass the real file system too). */
export interface LoadContext {
  read: ReadText;
  /** Display form of an absolute path. */
  label: (path: string) => string;
  /** Project root. */
  root: string;
  /** Environment variables for `${VAR}` in requirements files. */
  env?: (name: string) => string | undefined;
}

const PYLOCK_NAME = /^pylock\.(?:[^.]+\.)?toml$/;

/** The format a file name implies, or null when the name says nothing. */
export function formatByName(path: string): LockFormat | null {
  const name = basename(path);
  if (name === "uv.lock") return "uv.lock";
  if (name === "poetry.lock") return "poetry.lock";
  if (PYLOCK_NAME.test(name)) return "pylock.toml";
  if (name === "Pipfile.lock") return "Pipfile.lock";
  if (name === "pdm.lock") return "pdm.lock";
  if (/\.(?:txt|in)$/i.test(name)) return "requirements";
  return manifestFormatByName(name);
}

/** The format of a file whose name says nothing, from its content. */
export function formatByContent(source: string): LockFormat {
  try {
    const json = JSON.parse(source);
    if (isTable(json) && isTable(json._meta)) return "Pipfile.lock";
  } catch {
    // not JSON
  }
  let doc: Record<string, unknown>;
  try {
    doc = readToml(source, "file");
  } catch {
    return "requirements";
  }
  if ("lock-version" in doc && Array.isArray(doc.packages)) return "pylock.toml";
  if (Array.isArray(doc.package)) {
    const metadata = table(doc.metadata);
    if ("lock_version" in metadata || "content_hash" in metadata) return "pdm.lock";
    return "content-hash" in metadata ? "poetry.lock" : "uv.lock";
  }
  if (isTable(doc.project) || isTable(doc.tool)) return "pyproject.toml";
  return "requirements";
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function listDir(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isFile || e.isSymlink).map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Manifests audited when a project has no lock or requirements file. */
const MANIFESTS = ["pyproject.toml", "setup.py", "setup.cfg", "Pipfile", "environment.yml"];

/**
 * Files to audit in a project root: uv.lock, poetry.lock, pylock.toml /
 * pylock.*.toml, Pipfile.lock, pdm.lock, requirements*.txt and
 * requirements/*.txt; the manifests (pyproject.toml, setup.py, setup.cfg,
 * Pipfile, environment.yml) only when none of these exists (beside a lock
 * file a manifest is the companion, not an input).
 */
export function discoverFiles(root: string): string[] {
  const found: string[] = [];
  for (const name of listDir(root)) {
    if (
      name === "uv.lock" || name === "poetry.lock" || PYLOCK_NAME.test(name) ||
      name === "Pipfile.lock" || name === "pdm.lock" || /^requirements.*\.txt$/.test(name)
    ) found.push(join(root, name));
  }
  for (const name of listDir(join(root, "requirements"))) {
    if (name.endsWith(".txt")) found.push(join(root, "requirements", name));
  }
  if (found.length) return found;
  const manifests = MANIFESTS.map((name) => join(root, name)).filter(isFile);
  if (manifests.length) return manifests;
  throw new ClientError(
    "no_input",
    `No pyproject.toml, lock file or requirements file in ${root} ` +
      `(nor ${MANIFESTS.slice(1).join(", ")})`,
  );
}

function parseAs(format: LockFormat, path: string, source: string, ctx: LoadContext): ParsedLock {
  const file = ctx.label(path);
  switch (format) {
    case "uv.lock":
      return parseUvLock(source, file);
    case "poetry.lock":
      return parsePoetryLock(source, file);
    case "pylock.toml":
      return parsePylock(source, file);
    case "Pipfile.lock":
      return parsePipfileLock(source, file);
    case "pdm.lock":
      return parsePdmLock(source, file);
    case "pyproject.toml":
      return parsePyprojectInput(source, file);
    case "requirements":
      return parseRequirements(path, source, ctx);
    default: {
      const read = readManifest(format, source, file);
      return {
        entries: read.declared.map((d) => declaredEntry(d, file)),
        rootDirect: null,
        warnings: read.warnings,
      };
    }
  }
}

interface Companion {
  path: string;
  names: Set<string>;
  project: string | null;
}

function companion(format: LockFormat, path: string, ctx: LoadContext): Companion | null {
  const dir = dirname(path);
  let candidate: string;
  if (format === "Pipfile.lock") candidate = join(dir, "Pipfile");
  else if (format === "requirements") candidate = path.replace(/\.txt$/i, ".in");
  else if (!["uv.lock", "poetry.lock", "pylock.toml", "pdm.lock"].includes(format)) return null;
  else candidate = join(dir, "pyproject.toml");
  if (candidate === path || !isFile(candidate)) return null;
  const source = ctx.read(candidate);
  const label = ctx.label(candidate);
  if (format === "requirements") {
    return { path: label, names: requirementNames(candidate, source, ctx), project: null };
  }
  const kind = format === "Pipfile.lock" ? "Pipfile" : "pyproject.toml";
  const names = manifestDirectNames(kind, source, label);
  const project = kind === "pyproject.toml" ? pyprojectName(readToml(source, label)) : null;
  return { path: label, names, project };
}

/** Reads and parses one file (absolute `path`), settling `direct` for each entry. */
export function loadLockFile(path: string, ctx: LoadContext): LoadedFile {
  const abs = resolve(path);
  let source: string;
  try {
    source = ctx.read(abs);
  } catch {
    throw new ClientError("no_input", `Cannot read ${ctx.label(abs)}`);
  }
  const format = formatByName(abs) ?? formatByContent(source);
  const parsed = parseAs(format, abs, source, ctx);
  const manifest = companion(format, abs, ctx);
  const entries = parsed.entries
    .filter((e) => !(e.local && manifest?.project === e.name))
    .map((e): AuditedEntry => ({
      ...e,
      direct: manifest
        ? manifest.names.has(e.name)
        : e.direct ?? parsed.rootDirect?.has(e.name) ?? false,
    }));
  return {
    file: ctx.label(abs),
    format,
    manifest: manifest?.path ?? null,
    entries,
    warnings: parsed.warnings ?? [],
  };
}
