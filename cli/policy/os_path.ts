/**
 * The path operations `.policy.toml` discovery, manifest detection and hook
 * payloads need, without `node:path`: importing it loads Deno's Node
 * compatibility layer, about 8 ms of CPU on every `policy check`, `hook` and
 * `precommit` (docs/performance.md, "Client start-up"). Paths are taken as
 * given (no `.`/`..` normalisation) except by {@link resolvePath}; on Windows
 * both separators are accepted, as `node:path` does (drive-relative `C:x` and
 * UNC paths are not handled).
 *
 * @module
 */

const WINDOWS = Deno.build.os === "windows";
const SEPARATOR = WINDOWS ? "\\" : "/";

function isSeparator(char: string | undefined): boolean {
  return char === "/" || (WINDOWS && char === "\\");
}

/** Length of the root of an absolute path (`/`, `C:\`), 0 for a relative one. */
function rootLength(path: string): number {
  if (WINDOWS && /^[A-Za-z]:[\\/]/.test(path)) return 3;
  return isSeparator(path[0]) ? 1 : 0;
}

/** Index just past the last character that is not a trailing separator. */
function trimmedEnd(path: string): number {
  let end = path.length;
  while (end > rootLength(path) && isSeparator(path[end - 1])) end--;
  return end;
}

/** `dir` and `name` joined with the platform separator. */
export function joinPath(dir: string, name: string): string {
  return isSeparator(dir.at(-1)) ? dir + name : dir + SEPARATOR + name;
}

/** The directory holding `path`; the root is its own parent, like `node:path` `dirname`. */
export function parentDir(path: string): string {
  const root = rootLength(path);
  let end = trimmedEnd(path);
  while (end > root && !isSeparator(path[end - 1])) end--;
  while (end > root && isSeparator(path[end - 1])) end--;
  if (end === 0) return root > 0 ? path.slice(0, root) : ".";
  return path.slice(0, end);
}

/** The last segment of `path` (empty for a root), like `node:path` `basename`. */
export function baseName(path: string): string {
  const end = trimmedEnd(path);
  let start = end;
  while (start > rootLength(path) && !isSeparator(path[start - 1])) start--;
  return path.slice(start, end);
}

/**
 * `path` made absolute against `base` (itself against the working directory
 * when relative), `.` and `..` folded, like `node:path` `resolve(base, path)`.
 */
export function resolvePath(base: string, path: string): string {
  let full = path;
  if (rootLength(path) === 0) {
    full = joinPath(rootLength(base) ? base : joinPath(Deno.cwd(), base), path);
  }
  const root = rootLength(full);
  const parts: string[] = [];
  for (const part of full.slice(root).split(WINDOWS ? /[\\/]/ : "/")) {
    if (part === "..") parts.pop();
    else if (part !== "" && part !== ".") parts.push(part);
  }
  const prefix = full.slice(0, root);
  return (WINDOWS ? prefix.replaceAll("/", "\\") : prefix) + parts.join(SEPARATOR);
}
