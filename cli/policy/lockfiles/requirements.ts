/**
 * pip requirements files (`requirements*.txt`, pip-compile output, `.in`
 * inputs). pip-requirements-js parses each requirement (PEP 508 names,
 * extras, version specifiers, markers, `name @ URL`, `-r`/`-c`); pip's
 * file-level syntax that it does not cover is handled here as pip's own
 * `req_file.py` does: backslash continuations are joined, comments dropped,
 * per-requirement options (`--hash=…`) cut off, global options (`-i`,
 * `--extra-index-url`, …) ignored, `-e`, bare URLs and paths recognised.
 *
 * `-r` includes are read relative to the including file, `-c` constraint
 * pins apply to requirements that do not pin themselves. pip-compile
 * `# via` annotations tell direct requirements (`-r file.in`, `(pyproject.toml)`)
 * from transitive ones; a file without them lists only direct ones.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import {
  exactPin,
  expandVariables,
  INLINE_COMMENT,
  logicalLines,
  OPTION_START,
  optionValue,
  parseRequirement,
  PATH_LIKE,
  URL_LIKE,
  urlTarget,
} from "./requirement_lines.ts";
import { normalizeName } from "../../../src/core/names.ts";
import { ClientError } from "../exit_codes.ts";
import { entry, type LockEntry, type ParsedLock } from "./types.ts";

export { expandVariables, logicalLines } from "./requirement_lines.ts";

/** Reads a file by absolute path (throws when it cannot). */
export type ReadText = (path: string) => string;

/** How a requirements file is read: where it is, how to show paths, the project root. */
export interface RequirementsContext {
  read: ReadText;
  /** Display form of an absolute path (entries' `file`). */
  label: (path: string) => string;
  /** Project root: a local path requirement pointing here is the project itself. */
  root: string;
  /** Environment variables for `${VAR}` (pip expands them); none when absent. */
  env?: (name: string) => string | undefined;
}

interface Walk {
  ctx: RequirementsContext;
  entries: LockEntry[];
  /** `FILE line N: …` for every line that could not be read. */
  warnings: string[];
  /** The `-r`/`-c` targets as written, in order. */
  included: string[];
  constraints: Map<string, LockEntry>;
  seen: Set<string>;
}

function lineError(label: string, line: number, detail: string): ClientError {
  return new ClientError("bad_input", `Cannot parse ${label} line ${line}: ${detail}`);
}

function readIncluded(walk: Walk, path: string, from: string, line: number): string | null {
  try {
    return walk.ctx.read(path);
  } catch {
    walk.warnings.push(`${from} line ${line}: cannot read ${walk.ctx.label(path)}`);
    return null;
  }
}

/** One requirement spec (after options were cut off) → an entry, or null for the project itself. */
function specEntry(
  walk: Walk,
  spec: string,
  at: { file: string; line: number },
  dir: string,
): LockEntry | null {
  const bare = URL_LIKE.test(spec) || PATH_LIKE.test(spec) ||
    (!/\s@\s|@/.test(spec.split("#")[0]) && /[\\/]/.test(spec.split(/[;#]/)[0]));
  if (bare) {
    const target = spec.split(/\s+;|;\s/)[0].trim();
    const local = !URL_LIKE.test(target) || target.startsWith("file:");
    const path = local ? resolve(dir, target.replace(/^file:(\/\/)?/, "").split("#")[0]) : null;
    if (path !== null && resolve(path) === resolve(walk.ctx.root)) return null;
    const { name, version } = urlTarget(target);
    // A local directory without a name (`-e .` outside the root) is a project, not a package.
    if (local && (!name || !/^[A-Za-z0-9]/.test(name))) return null;
    if (!name) throw lineError(at.file, at.line, `no package name in ${target} (add #egg=NAME)`);
    return entry({
      ...at,
      name: normalizeName(name),
      version,
      source: local ? `path ${target}` : target,
      local,
    });
  }
  const req = parseRequirement(spec);
  if (req === null) throw lineError(at.file, at.line, `not a requirement: ${spec}`);
  if (req.type === "ProjectURL") {
    const local = !URL_LIKE.test(req.url) || req.url.startsWith("file:");
    if (local) {
      const path = resolve(dir, req.url.replace(/^file:(\/\/)?/, ""));
      if (path === resolve(walk.ctx.root)) return null;
    }
    return entry({
      ...at,
      name: normalizeName(req.name),
      version: urlTarget(req.url).version,
      source: local ? `path ${req.url}` : req.url,
      local,
    });
  }
  if (req.type !== "ProjectName") return null;
  const specs = (req.versionSpec ?? []) as Array<{ operator: string; version: string }>;
  const version = exactPin(specs);
  return entry({
    ...at,
    name: normalizeName(req.name),
    version,
    pinned: version !== null,
    specifier: version === null && specs.length
      ? specs.map((s) => `${s.operator}${s.version}`).join(",")
      : null,
  });
}

function viaSaysDirect(items: string[]): boolean {
  return items.some((item) =>
    /^-r\s/.test(item) || /\((?:pyproject\.toml|setup\.py|setup\.cfg)\)\s*$/.test(item)
  );
}

function walkFile(walk: Walk, path: string, source: string, constraintsOnly: boolean): void {
  const file = walk.ctx.label(path);
  const dir = dirname(path);
  const mine: Array<{ entry: LockEntry; via: string[] | null }> = [];
  let collecting: string[] | null = null;
  let annotated = false;
  for (const logical of logicalLines(source)) {
    if (logical.comment) {
      const via = /^\s*#\s*via\b\s*(.*)$/.exec(logical.text);
      const last = mine[mine.length - 1];
      if (via && last) {
        annotated = true;
        last.via = via[1].trim() ? [via[1].trim()] : [];
        collecting = last.via;
      } else if (collecting && /^\s*#\s{2,}\S/.test(logical.text)) {
        collecting.push(logical.text.replace(/^\s*#\s*/, "").trim());
      } else {
        collecting = null;
      }
      continue;
    }
    collecting = null;
    const line = expandVariables(logical.text.replace(INLINE_COMMENT, ""), walk.ctx.env).trim();
    if (!line) continue;
    const at = { file, line: logical.line };
    const include = optionValue(line, "-r", "--requirement");
    const constraint = optionValue(line, "-c", "--constraint");
    if (include !== null || constraint !== null) {
      walk.included.push((include ?? constraint)!);
      const target = resolve(dir, (include ?? constraint)!);
      if (walk.seen.has(target)) continue;
      walk.seen.add(target);
      const text = readIncluded(walk, target, file, logical.line);
      if (text !== null) walkFile(walk, target, text, constraintsOnly || constraint !== null);
      continue;
    }
    const editable = optionValue(line, "-e", "--editable");
    if (editable === null && line.startsWith("-")) continue; // a global option (-i, --pre, …)
    const spec = (editable ?? line).split(OPTION_START)[0].trim();
    let found: LockEntry | null;
    try {
      found = specEntry(walk, spec, at, dir);
    } catch (error) {
      // One line pip could not read either is skipped with a warning; the rest is audited.
      if (!(error instanceof ClientError)) throw error;
      walk.warnings.push(error.message.replace(/^Cannot parse (.+) line (\d+): /, "$1 line $2: "));
      continue;
    }
    if (found === null) continue;
    found.requirement = spec;
    if (constraintsOnly) {
      if (found.pinned && !walk.constraints.has(found.name)) {
        walk.constraints.set(found.name, found);
      }
      continue;
    }
    mine.push({ entry: found, via: null });
  }
  for (const { entry: e, via } of mine) {
    walk.entries.push({ ...e, direct: annotated ? via !== null && viaSaysDirect(via) : true });
  }
}

/**
 * Parses the requirements file at absolute `path` (text `source`), its `-r`
 * includes and `-c` constraints. Entries carry `direct` from the file's own
 * annotations.
 */
export function parseRequirements(
  path: string,
  source: string,
  ctx: RequirementsContext,
): ParsedLock {
  const walk: Walk = {
    ctx,
    entries: [],
    warnings: [],
    included: [],
    constraints: new Map(),
    seen: new Set([resolve(path)]),
  };
  walkFile(walk, resolve(path), source, false);
  const entries = walk.entries.map((e) => {
    const pin = e.pinned || e.source !== null ? undefined : walk.constraints.get(e.name);
    return pin ? { ...e, version: pin.version, pinned: true, file: pin.file, line: pin.line } : e;
  });
  return { entries, rootDirect: null, warnings: walk.warnings, included: walk.included };
}

/** Names a requirements file asks for (its own lines and `-r` includes), for `.in` companions. */
export function requirementNames(
  path: string,
  source: string,
  ctx: RequirementsContext,
): Set<string> {
  return new Set(parseRequirements(path, source, ctx).entries.map((e) => e.name));
}
