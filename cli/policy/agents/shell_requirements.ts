/**
 * One word of an install command read as a requirement: a PEP 508 requirement, Poetry's
 * `name@^1.2`, `name @ url`, a wheel or sdist file or URL (name and version from the file name),
 * a VCS URL (`git+https://…#egg=name`), or a local path (no package).
 *
 * @module
 */

import { normalizeName } from "../../../src/core/names.ts";
import { pinnedVersion, requirementName } from "../pyproject.ts";

/** One package a command would install. */
export interface RequestedPackage {
  /** Normalised name. */
  name: string;
  /** The requirement as written (`pycrypto==2.6.1`, `django@^4.2`). */
  spec: string;
  /** Concrete version to evaluate, or null. */
  version: string | null;
  /** True when the name is read loosely: it never files an approval request. */
  loose?: boolean;
  /**
   * True when the name is a guess (the repository name of a VCS URL without `#egg=`): it may
   * only match the registry's own rules (banned, deprecated, version constraint), never a
   * threat such as a typosquat or a missing project. Always `loose` as well.
   */
  guessed?: boolean;
}

/** A word still holding a variable or command substitution the reader could not expand. */
export function isUnresolved(word: string): boolean {
  return /\$(\(|\{|[A-Za-z_@*#?\d])|`/.test(word);
}

/** A VCS requirement (`git+https://…`, scp-like `git+git@host:owner/repo`). */
const VCS = /^(git|hg|svn|bzr)\+/i;

const ARCHIVE = /\.(whl|zip|tar\.gz|tgz|tar\.bz2|tar\.xz|egg)$/i;

/** Name and version of a wheel or sdist file name (`pycrypto-2.6.1.tar.gz`, `x-1.0-py3-none-any.whl`). */
export function archiveRequirement(file: string): RequestedPackage | null {
  const base = decodeURIComponent(file.split(/[?#]/)[0].split("/").pop() ?? "");
  if (!ARCHIVE.test(base)) return null;
  const stem = base.replace(ARCHIVE, "");
  const m = /\.whl$/i.test(base)
    ? /^([A-Za-z0-9][A-Za-z0-9._]*?)-(\d[^-]*)-/.exec(stem)
    : /^([A-Za-z0-9][A-Za-z0-9._-]*?)-(\d[A-Za-z0-9.+!_-]*)$/.exec(stem);
  if (!m) return null;
  return { name: normalizeName(m[1]), spec: file, version: m[2] };
}

/**
 * The repository name of a VCS URL (`git+https://host/owner/repo.git@ref#…` → `repo`), or null.
 * The ref after `@` (a branch, tag, commit or `refs/pull/1/head`) is never the name; scp-like
 * `git+git@host:owner/repo` and `file://` paths are read the same way.
 */
export function repositoryName(url: string): string | null {
  if (!VCS.test(url)) return null;
  let rest = url.slice(url.indexOf("+") + 1).split(/[#?]/)[0];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)(.*)$/i.exec(rest);
  if (scheme) rest = scheme[2]; // drop scheme, user and host
  else rest = rest.replace(/^[^/:@]+@[^/:]+:/, ""); // scp-like `git@host:owner/repo`
  const at = rest.indexOf("@");
  const path = at >= 0 ? rest.slice(0, at) : rest;
  const last = path.split("/").filter(Boolean).pop()?.replace(/\.git$/i, "");
  return last && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(last) ? last : null;
}

/** The package of a VCS or archive URL: `#egg=name`, the file name, else the repository name. */
function urlRequirement(url: string): RequestedPackage | null {
  const egg = /[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(url);
  if (egg) return { name: normalizeName(egg[1]), spec: url, version: null };
  const archive = archiveRequirement(url);
  if (archive) return archive;
  const repo = repositoryName(url);
  if (repo === null) return null;
  return { name: normalizeName(repo), spec: url, version: null, loose: true, guessed: true };
}

/** A local path rather than a package name. */
function isLocalPath(word: string): boolean {
  return /^(\.{1,2}($|[/\\])|\/|~|[A-Za-z]:\\)/.test(word) || /^[\w.-]+\/[\w./-]*$/.test(word);
}

/**
 * The package one install word names, or null for a local project, an option-like word or an
 * unresolved variable (see {@link isUnresolved}).
 */
export function requested(word: string): RequestedPackage | null {
  const spec = word.trim();
  if (spec === "" || spec === ".") return null;
  const direct = /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*@\s*\S+:\/\//.exec(spec);
  if (direct) return { name: normalizeName(direct[1]), spec, version: null }; // `name @ url`
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec) || VCS.test(spec)) return urlRequirement(spec);
  if (ARCHIVE.test(spec)) return archiveRequirement(spec);
  if (isUnresolved(spec) || isLocalPath(spec)) return null;
  const at = /^([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)@([^/:]*)$/.exec(spec);
  if (at) {
    const name = requirementName(at[1]);
    if (name === null) return null;
    const constraint = at[2] === "latest" ? "" : at[2];
    return {
      name: normalizeName(name),
      spec,
      version: constraint ? pinnedVersion(constraint) : null,
    };
  }
  const name = requirementName(spec);
  if (name === null) return null;
  return { name: normalizeName(name), spec, version: pinnedVersion(spec) };
}

/** The package of an editable install's value (`-e git+…#egg=name`); null for a local path. */
export function editable(value: string): RequestedPackage | null {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || VCS.test(value) ? urlRequirement(value) : null;
}
