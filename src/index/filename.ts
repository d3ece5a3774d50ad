/**
 * The version a distribution file belongs to, read from its file name
 * (wheel, sdist, egg), as installers do. Pure.
 *
 * @module
 */
import { normalizeName } from "../core/names.ts";

const SDIST_SUFFIXES = [".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tar", ".zip"];

/**
 * The version of `filename` for project `project`; null when the name does
 * not follow the wheel, sdist or egg conventions (such files are left out of
 * the page: the policy cannot decide a file it cannot place).
 *
 * @example
 * ```ts
 * versionOfFile("python-dateutil", "python_dateutil-2.9.0-py2.py3-none-any.whl"); // "2.9.0"
 * versionOfFile("python-dateutil", "python-dateutil-2.8.2.tar.gz"); // "2.8.2"
 * ```
 */
export function versionOfFile(project: string, filename: string): string | null {
  if (filename.endsWith(".whl") || filename.endsWith(".egg")) {
    const parts = filename.slice(0, -4).split("-");
    return parts.length >= 3 && parts[1] ? parts[1] : null;
  }
  const suffix = SDIST_SUFFIXES.find((s) => filename.toLowerCase().endsWith(s));
  if (!suffix) return null;
  const base = filename.slice(0, -suffix.length);
  const want = normalizeName(project);
  // The name may itself contain dashes: the version starts after the dash
  // whose prefix is the project's name.
  for (let i = base.indexOf("-"); i > 0; i = base.indexOf("-", i + 1)) {
    if (normalizeName(base.slice(0, i)) === want) return base.slice(i + 1) || null;
  }
  return null;
}
