/**
 * The staged manifests and both their versions from **one** git process
 * (issue #27 point 10): `git diff --cached --raw -p` with full context over
 * the file names a manifest can have. Each git process costs a pre-commit run
 * 2–8 ms of wall time, and the names-then-`git show`-per-version way took
 * 1 + 2 × manifests of them. Every version read from the patch is checked
 * against its blob id (the hash git itself computes), so whatever the diff
 * options, configuration or environment do to the patch, a version is either
 * exactly the blob or the whole reading is refused (null) and the caller reads
 * the files one `git show` at a time, as before.
 *
 * @module
 */

import { git } from "./git.ts";

/**
 * Git pathspecs covering every name `manifestKind` accepts (a superset: the
 * caller still asks `manifestKind`), so that other staged files never go
 * through the pipe.
 */
export const MANIFEST_PATHSPECS: readonly string[] = [
  ":(glob,icase)**/*requirements*.txt",
  ":(glob,icase)**/*requirements*.in",
  ":(glob,icase)**/*constraints*.txt",
  ":(glob,icase)**/*constraints*.in",
  ":(glob,icase)**/requirements/*.txt",
  ":(glob,icase)**/requirements/*.in",
  ":(glob)**/pyproject.toml",
  ":(glob)**/setup.cfg",
  ":(glob)**/Pipfile",
  ":(glob)**/tox.ini",
  ":(glob)**/environment.yml",
  ":(glob)**/environment.yaml",
  ":(glob)**/*.py",
];

/** A file the index adds or changes against HEAD, with both versions. */
export interface StagedFile {
  /** Path relative to the working directory. */
  path: string;
  /** Text at HEAD, or null for a file the commit adds. */
  before: string | null;
  /** Text in the index. */
  after: string;
}

const ARGS = [
  "diff",
  "--cached",
  "--relative",
  "--no-renames",
  "--diff-filter=ACMR",
  "--raw",
  "-z",
  "--no-abbrev",
  "-p",
  "--full-index",
  "-U999999999",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "--",
];

/** One raw record: blob ids, status and path. */
interface RawEntry {
  oldId: string;
  newId: string;
  status: string;
  path: string;
  modesOk: boolean;
}

const RAW = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/;
const FILE_MODES = ["100644", "100755"];

/** The raw records before the patches, and where the patches start; null when unreadable. */
function rawEntries(out: string): { entries: RawEntry[]; rest: string } | null {
  const entries: RawEntry[] = [];
  let at = 0;
  while (out.startsWith(":", at)) {
    const end = out.indexOf("\0", at);
    const pathEnd = end < 0 ? -1 : out.indexOf("\0", end + 1);
    if (pathEnd < 0) return null;
    const m = RAW.exec(out.slice(at, end));
    if (!m) return null;
    const [, oldMode, newMode, oldId, newId, status] = m;
    const modesOk = FILE_MODES.includes(newMode) &&
      (status === "A" ? /^0+$/.test(oldMode) : FILE_MODES.includes(oldMode));
    entries.push({ oldId, newId, status, path: out.slice(end + 1, pathEnd), modesOk });
    at = pathEnd + 1;
  }
  if (entries.length && out[at] === "\0") at++;
  return { entries, rest: out.slice(at) };
}

/** Old and new text of one file's patch with a single whole-file hunk; null otherwise. */
function hunkTexts(patch: string[]): { before: string; after: string } | null {
  const at = patch.findIndex((line) => line.startsWith("@@ "));
  if (at < 0 || patch.slice(at + 1).some((line) => line.startsWith("@@ "))) return null;
  const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(patch[at]);
  if (!h) return null;
  const before: string[] = [];
  const after: string[] = [];
  let last: string[][] = [];
  for (const line of patch.slice(at + 1)) {
    const mark = line[0] ?? " ";
    const text = line.slice(1);
    if (mark === "\\") {
      for (const side of last) side[side.length - 1] = side[side.length - 1].slice(0, -1);
      last = [];
      continue;
    }
    if (mark === " ") last = [before, after];
    else if (mark === "-") last = [before];
    else if (mark === "+") last = [after];
    else return null;
    for (const side of last) side.push(`${text}\n`);
  }
  const oldCount = h[2] === undefined ? 1 : Number(h[2]);
  const newCount = h[4] === undefined ? 1 : Number(h[4]);
  if (before.length !== oldCount || after.length !== newCount) return null;
  return { before: before.join(""), after: after.join("") };
}

/** Hex digest of the git blob holding `text` (SHA-1 ids, or SHA-256 ones in such repositories). */
async function blobId(text: string, idLength: number): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const all = new Uint8Array(header.length + bytes.length);
  all.set(header);
  all.set(bytes, header.length);
  const digest = await crypto.subtle.digest(idLength === 64 ? "SHA-256" : "SHA-1", all);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A blob's text as `git show` prints it to a UTF-8 reader (which drops one leading BOM). */
const asShown = (text: string) => text.startsWith("\uFEFF") ? text.slice(1) : text;

/**
 * The files of a `git diff --cached --raw -z -p --full-index -U<all>` output,
 * each version checked against its blob id; null when anything is not read
 * exactly (a binary or mode-only change, a link, an unexpected line, a hash
 * that does not match).
 */
export async function parseStagedDiff(out: string): Promise<StagedFile[] | null> {
  const raw = rawEntries(out);
  if (raw === null) return null;
  const { entries, rest } = raw;
  if (entries.length === 0) return rest === "" ? [] : null;
  if (!rest.startsWith("diff --git ")) return null;
  const lines = rest.endsWith("\n") ? rest.slice(0, -1).split("\n") : rest.split("\n");
  const patches: string[][] = [];
  for (const line of lines) {
    if (line.startsWith("diff --git ")) patches.push([]);
    patches[patches.length - 1].push(line);
  }
  if (patches.length !== entries.length) return null;
  const files: StagedFile[] = [];
  for (const [i, entry] of entries.entries()) {
    if (!entry.modesOk) return null;
    const index = `index ${entry.oldId}..${entry.newId}`;
    if (!patches[i].some((line) => line === index || line.startsWith(`${index} `))) return null;
    const texts = hunkTexts(patches[i]);
    if (texts === null) return null;
    const added = entry.status === "A";
    if (added && texts.before !== "") return null;
    if (await blobId(texts.after, entry.newId.length) !== entry.newId) return null;
    if (!added && await blobId(texts.before, entry.oldId.length) !== entry.oldId) return null;
    files.push({
      path: entry.path,
      before: added ? null : asShown(texts.before),
      after: asShown(texts.after),
    });
  }
  return files;
}

/**
 * The staged files whose names a manifest can have, with both versions, from
 * one git process; null when git fails or its output cannot be read exactly.
 */
export async function stagedDiff(cwd: string): Promise<StagedFile[] | null> {
  const res = await git([...STAGED_DIFF_ARGV], cwd);
  if (res.code !== 0) return null;
  return await parseStagedDiff(res.stdout);
}

/** The git arguments of the staged-diff reading (the shim runs the same). */
export const STAGED_DIFF_ARGV: readonly string[] = [...ARGS, ...MANIFEST_PATHSPECS];

/**
 * The last line the git shim writes after git's output: git's exit status,
 * so that a failed git is told apart from nothing staged.
 */
export const GIT_EXIT_TRAILER = "policy-git-exit ";

/**
 * The staged files from what the git shim piped in (git's output, then
 * {@link GIT_EXIT_TRAILER} and git's exit status on a line of its own): null
 * when git failed, the trailer is missing, or the diff cannot be read exactly
 * (every version is still checked against its blob id), so the caller runs git
 * itself as before.
 */
export async function stagedDiffFromShim(piped: string): Promise<StagedFile[] | null> {
  const trailer = `${GIT_EXIT_TRAILER}0\n`;
  if (!piped.endsWith(trailer)) return null;
  return await parseStagedDiff(piped.slice(0, -trailer.length));
}
