/**
 * The line-level syntax of pip requirements files, as pip's `req_file.py`
 * reads it: logical lines (continuations joined, comments apart), options
 * with values, `${VAR}` expansion, unnamed URL and path targets, and one
 * requirement spec through pip-requirements-js.
 *
 * @module
 */
import { basename } from "node:path";
import {
  parsePipRequirementsLine,
  parsePipRequirementsLineLoosely,
  type Requirement,
} from "pip-requirements-js";

/** One logical line of a requirements file. */
export interface LogicalLine {
  text: string;
  /** 1-based first physical line. */
  line: number;
  comment: boolean;
}

const COMMENT_LINE = /^\s*#/;

/** pip's `join_lines` + comment detection: continuation lines joined, comment lines kept apart. */
export function logicalLines(source: string): LogicalLine[] {
  const out: LogicalLine[] = [];
  const physical = source.split(/\r?\n/);
  let parts: string[] = [];
  let start = 0;
  physical.forEach((line, i) => {
    if (COMMENT_LINE.test(line)) {
      if (parts.length) {
        out.push({ text: parts.join(""), line: start + 1, comment: false });
        parts = [];
      }
      out.push({ text: line, line: i + 1, comment: true });
      return;
    }
    if (!parts.length) start = i;
    if (line.endsWith("\\")) {
      parts.push(line.slice(0, -1));
      return;
    }
    parts.push(line);
    out.push({ text: parts.join(""), line: start + 1, comment: false });
    parts = [];
  });
  if (parts.length) out.push({ text: parts.join(""), line: start + 1, comment: false });
  return out;
}

/** A trailing `# comment`. */
export const INLINE_COMMENT = /(^|\s+)#.*$/;
/** Where per-requirement options (`--hash=…`) start. */
export const OPTION_START = /\s+--?[A-Za-z][\w-]*(?:[=\s]|$)/;
/** A URL requirement. */
export const URL_LIKE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|file:)/;
/** A local path requirement. */
export const PATH_LIKE = /^(?:\.{1,2}(?:[\\/]|$)|[\\/~]|[A-Za-z]:[\\/])/;

/** An option with a value: `-r x`, `-rx`, `--requirement x`, `--requirement=x`. */
export function optionValue(line: string, short: string, long: string): string | null {
  const m = new RegExp(`^(?:${short}\\s*|${long}(?:\\s+|=))(\\S.*)$`).exec(line);
  return m ? m[1].trim() : null;
}

/** The name and version an unnamed URL or path stands for. */
export interface UrlTarget {
  name: string | null;
  version: string | null;
}

/** Name (and version) of an unnamed URL or path: `#egg=`, a wheel or sdist file name. */
export function urlTarget(target: string): UrlTarget {
  const egg = /[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(target);
  if (egg) return { name: egg[1], version: null };
  const file = basename(target.split(/[?#]/)[0].replace(/[\\/]+$/, ""));
  const wheel = /^([A-Za-z0-9][A-Za-z0-9._]*)-([^-]+)-.*\.whl$/.exec(file);
  if (wheel) return { name: wheel[1], version: wheel[2] };
  const sdist = /^(.+?)-(\d[^-]*)\.(?:tar\.gz|tar\.bz2|tar\.xz|zip|tgz)$/.exec(file);
  if (sdist) return { name: sdist[1], version: sdist[2] };
  return { name: file && !/[:@]/.test(file) ? file : null, version: null };
}

/** `name[extras] @ URL ; marker`, which pip-requirements-js 1.0.3 rejects when a marker follows. */
const NAMED_URL = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*@\s*(\S+)/;

/** One requirement spec as pip-requirements-js reads it (strictly, then loosely), else null. */
export function parseRequirement(spec: string): Requirement | null {
  try {
    return parsePipRequirementsLine(spec);
  } catch {
    const named = NAMED_URL.exec(spec);
    if (named) return { type: "ProjectURL", name: named[1], url: named[2] };
    // `===` and other forms the strict grammar rejects: the loose reader keeps name and specifier
    try {
      const loose = parsePipRequirementsLineLoosely(spec);
      if (!loose) return null;
      return {
        type: "ProjectName",
        name: loose.name,
        versionSpec: (loose.versionSpec ?? []).map((v) => ({
          operator: v.operator,
          version: v.version ?? "",
        })) as never,
      };
    } catch {
      return null;
    }
  }
}

/** The exact version of a version specifier list (`==1.2`, `===1.2`), else null. */
export function exactPin(specs: Array<{ operator: string; version: string }>): string | null {
  if (specs.length !== 1) return null;
  const [{ operator, version }] = specs;
  return (operator === "==" || operator === "===") && version && !version.includes("*")
    ? version
    : null;
}

const ENV_VAR = /\$\{([A-Z0-9_]+)\}/g;

/** pip's `expand_env_variables`: `${NAME}` (upper case, digits, `_`) from the environment, else kept. */
export function expandVariables(
  text: string,
  env: ((name: string) => string | undefined) | undefined,
): string {
  return env ? text.replace(ENV_VAR, (whole, name) => env(name) ?? whole) : text;
}
