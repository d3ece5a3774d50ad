/**
 * The git pre-commit check (SPEC §11 "Pre-commit", issue 13): the
 * dependencies the staged change adds or changes in any dependency manifest
 * (diffed against HEAD's version of each file), or with `--all` every
 * dependency of every manifest, in one batch evaluation.
 *
 * @module
 */

import { diffDependencies } from "../pyproject.ts";
import { rangeQuery } from "../range_query.ts";
import { prepareReaders } from "../lockfiles/manifest_readers.ts";
import type { Dependencies } from "../pyproject.ts";
import { manifestDependencies, manifestKind, manifestReading } from "../agents/manifests.ts";
import {
  DENIED_MARKER,
  judgeQueries,
  type PrecommitClient,
  type PrecommitResult,
} from "./precommit_verdict.ts";

export { DENIED_MARKER, deniedCount, type PrecommitResult } from "./precommit_verdict.ts";

/** One staged manifest: its path, HEAD's text (null: new file or `--all`) and the staged text. */
export interface ManifestChange {
  path: string;
  before: string | null;
  after: string;
}

/** Inputs: the staged manifests and a client. */
export interface PrecommitOptions {
  manifests: ManifestChange[];
  client: PrecommitClient;
}

/** Dependencies the changes add or change, by name (first manifest wins); a one-line error on bad staged text. */
export function addedDependencies(manifests: ManifestChange[]): Dependencies | string {
  const added: Dependencies = new Map();
  for (const m of manifests) {
    const kind = manifestKind(m.path);
    if (kind === null) continue;
    let after: Dependencies;
    try {
      after = manifestDependencies(kind, m.after);
    } catch (error) {
      return `policy precommit: staged ${m.path}: ${(error as Error).message}`;
    }
    let before: Dependencies = new Map();
    try {
      if (m.before !== null) before = manifestDependencies(kind, m.before);
    } catch {
      // HEAD's version did not parse: everything staged counts as added
    }
    for (const [name, spec] of diffDependencies(before, after)[0]) {
      if (!added.has(name)) added.set(name, spec);
    }
  }
  return added;
}

/**
 * Runs the check. Exit 0 when nothing is denied (a fail-open transport error
 * passes with a warning); exit 1 on any DENIED with the human explanation
 * and then the structured line (stderr's last line), or with a one-line
 * reason when the server cannot be used.
 */
export async function runPrecommit(options: PrecommitOptions): Promise<PrecommitResult> {
  await prepareReaders(options.manifests.map((m) => m.path));
  const result = await decide(options);
  // Lines the staged change made unreadable are named after the explanation (the structured
  // line stays last); the readable ones were checked.
  const notes = unreadableParts(options.manifests)
    .map((w) => `policy precommit: warning: ${w}; not checked\n`).join("");
  const at = result.stderr.lastIndexOf(DENIED_MARKER);
  const stderr = at < 0
    ? result.stderr + notes
    : result.stderr.slice(0, at) + notes + result.stderr.slice(at);
  return { ...result, stderr };
}

/** Warnings (`FILE line N: …`) the staged manifests have that HEAD's versions did not. */
export function unreadableParts(manifests: ManifestChange[]): string[] {
  const strip = (w: string) => w.replace(/ line \d+: /, ": ");
  const out: string[] = [];
  for (const m of manifests) {
    const kind = manifestKind(m.path);
    if (kind === null) continue;
    try {
      const before = new Set(
        m.before === null ? [] : manifestReading(kind, m.before, m.path).warnings.map(strip),
      );
      out.push(
        ...manifestReading(kind, m.after, m.path).warnings.filter((w) => !before.has(strip(w))),
      );
    } catch {
      // an unparsable file is reported by addedDependencies
    }
  }
  return out;
}

async function decide(options: PrecommitOptions): Promise<PrecommitResult> {
  const deps = addedDependencies(options.manifests);
  if (typeof deps === "string") return { code: 1, stderr: `${deps}\n` };
  if (deps.size === 0) return { code: 0, stderr: "" };
  const queries = [...deps].map(([name, spec]) => rangeQuery(name, spec));
  return await judgeQueries(queries, options.client, options.manifests.map((m) => m.path));
}
