/**
 * The popular-project index behind the typosquat rule (SPEC §17.2): a
 * precomputed deletion neighbourhood (symmetric delete) of every popular
 * PEP 503 name, so finding the popular names one edit (insert, delete,
 * substitute, adjacent swap) away from a name costs a few map reads instead
 * of a scan of the list. Affixes (`python-`, `py-`, `-python`, `-py`) and
 * look-alike characters (`0`/`o`, `1`/`l`, `rn`/`m`) are checked through two
 * more maps. Pure: the names come in as data.
 *
 * @module
 */

/** How a name imitates a popular one. */
export type LookalikeHow = "edit" | "affix" | "homoglyph";

/** A popular project a name imitates. */
export interface Lookalike {
  /** The popular project's PEP 503 name. */
  similar_to: string;
  how: LookalikeHow;
}

/** A read-only set of popular names with the look-alike and "did you mean" queries. */
export interface PopularIndex {
  /** How many popular names the index holds. */
  readonly size: number;
  /** Whether `name` (PEP 503) is itself popular. */
  has(name: string): boolean;
  /** The most popular project `name` imitates, or null; null for a popular name itself. */
  lookalike(name: string): Lookalike | null;
  /** Up to `limit` popular names nearest to `name` (edit distance, then popularity). */
  nearest(name: string, limit: number): string[];
}

const AFFIXES_BEFORE = ["python-", "py-"];
const AFFIXES_AFTER = ["-python", "-py"];
/**
 * Popular names shorter than this are matched only exactly or by affix: one
 * edit of a three-letter name is another real project far too often.
 */
const MIN_EDIT_LENGTH = 4;
/**
 * Names shorter than this are never one-edit look-alikes: one edit of a short
 * or generic word (`head` of `dead`, `cli` of `kcli`) is a different word far
 * more often than a typo. Affixes and look-alike characters still apply.
 */
export const MIN_EDIT_CANDIDATE = 5;
/**
 * Only this many of the most popular names are imitated (the targets of every
 * look-alike kind); the whole list still counts as popular, so a name ranked
 * below stays exempt itself. Typosquats imitate the names people type most; a
 * name deep in the list is mostly one edit from other real projects. 10,000
 * keeps every typosquat of the malicious fixtures (the deepest target,
 * `pytorch`, ranks 8,258); docs/decisions.md has the measurements.
 */
export const TARGET_RANK = 10_000;

/** `rn` → `m`, `0` → `o`, `1` → `l`: the form look-alike names share. */
function skeleton(name: string): string {
  return name.replaceAll("rn", "m").replaceAll("0", "o").replaceAll("1", "l");
}

/** Whether two strings are exactly one insert, delete, substitution or adjacent swap apart. */
function oneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Optimal string alignment distance (adjacent swaps count 1), stopping past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length];
}

const BASE = 0x01000193;
/** Longest name the edit check looks at (PEP 508 names in requests are far shorter). */
const MAX_NAME = 512;
/** BASE^i mod 2^32 for i < MAX_NAME. */
const POWERS: readonly number[] = Object.freeze((() => {
  const powers = [1];
  for (let i = 1; i < MAX_NAME; i++) powers.push(Math.imul(powers[i - 1], BASE) >>> 0);
  return powers;
})());

/**
 * Hashes of `name` and of every one-character deletion of it, in O(length)
 * without building the strings: polynomial hashes mod 2^32 from prefix and
 * suffix sums, mixed with the length. Collisions only add candidates, and
 * every candidate is verified with {@link oneEdit}.
 */
function deletionKeys(name: string): number[] {
  const n = name.length;
  const prefix = new Array<number>(n + 1);
  prefix[0] = 0;
  for (let i = 0; i < n; i++) {
    prefix[i + 1] = (Math.imul(prefix[i], BASE) + name.charCodeAt(i)) >>> 0;
  }
  const keys = [mix(prefix[n], n)];
  let suffix = 0; // hash of name[i+1..n)
  for (let i = n - 1; i >= 0; i--) {
    if (i === n - 1 || name[i] !== name[i + 1]) {
      // Deleting either of two equal neighbours gives the same string: one key.
      keys.push(mix((Math.imul(prefix[i], POWERS[n - 1 - i]) + suffix) >>> 0, n - 1));
    }
    suffix = (Math.imul(name.charCodeAt(i), POWERS[n - 1 - i]) + suffix) >>> 0;
  }
  return keys;
}

function mix(hash: number, length: number): number {
  return (hash ^ Math.imul(length, 0x9e3779b1)) >>> 0;
}

/** The precomputed tables of an index. */
interface Tables {
  /** Name → popularity rank (0 = most downloaded). */
  rank: Map<string, number>;
  /** Deletion key → popular names with that key. */
  neighbours: Map<number, string[]>;
  /** Look-alike skeleton → the most popular name with it. */
  skeletons: Map<string, string>;
  /** Length of the longest target name. */
  longest: number;
  /** `lengths[n]`: some target of length n is matched by one edit (the early exit of `byEdit`). */
  lengths: Uint8Array;
  /** Name → the most popular target that is the name with an affix added (`byAffix`). */
  affixed: Map<string, string>;
}

function tablesOf(names: Iterable<string>): Tables {
  const rank = new Map<string, number>();
  for (const name of names) if (!rank.has(name)) rank.set(name, rank.size);
  const neighbours = new Map<number, string[]>();
  const skeletons = new Map<string, string>();
  const affixed = new Map<string, string>();
  const lengths = new Uint8Array(MAX_NAME + 1);
  let longest = 0;
  for (const [name, at] of rank) {
    if (at >= TARGET_RANK) break;
    longest = Math.max(longest, name.length);
    if (!skeletons.has(skeleton(name))) skeletons.set(skeleton(name), name);
    // Most popular first: the first target found for a stripped name is the one `better` keeps.
    for (const core of strippedForms(name)) if (!affixed.has(core)) affixed.set(core, name);
    if (name.length < MIN_EDIT_LENGTH || name.length >= MAX_NAME) continue;
    lengths[name.length] = 1;
    for (const key of deletionKeys(name)) {
      const list = neighbours.get(key);
      if (list === undefined) neighbours.set(key, [name]);
      else if (list[list.length - 1] !== name) list.push(name);
    }
  }
  return { rank, neighbours, skeletons, longest, lengths, affixed };
}

/** The more popular of two names (`a` may be none yet). */
function better(t: Tables, a: string | null, b: string): string {
  return a === null || t.rank.get(b)! < t.rank.get(a)! ? b : a;
}

function byEdit(t: Tables, name: string): string | null {
  if (name.length < MIN_EDIT_CANDIDATE) return null;
  const n = name.length;
  if (n > t.longest + 1 || n >= MAX_NAME) return null;
  // `oneEdit` accepts only a target of length n - 1, n or n + 1: none, no candidate can pass.
  if (!t.lengths[n - 1] && !t.lengths[n] && !t.lengths[n + 1]) return null;
  let found: string | null = null;
  for (const key of deletionKeys(name)) {
    for (const candidate of t.neighbours.get(key) ?? []) {
      if (oneEdit(name, candidate)) found = better(t, found, candidate);
    }
  }
  return found;
}

/** `name` without each affix it carries (`python-x` → `x`); none for a name without one. */
function strippedForms(name: string): string[] {
  const forms: string[] = [];
  for (const a of AFFIXES_BEFORE) if (name.startsWith(a)) forms.push(name.slice(a.length));
  for (const a of AFFIXES_AFTER) if (name.endsWith(a)) forms.push(name.slice(0, -a.length));
  return forms.filter((form) => form !== "");
}

/**
 * The most popular target that is `name` with an affix added (precomputed in
 * `affixed`) or removed: no affixed strings are built per name.
 */
function byAffix(t: Tables, name: string): string | null {
  let found = t.affixed.get(name) ?? null;
  for (const form of strippedForms(name)) {
    if ((t.rank.get(form) ?? TARGET_RANK) < TARGET_RANK) found = better(t, found, form);
  }
  return found;
}

function lookalikeIn(t: Tables, name: string): Lookalike | null {
  if (t.rank.has(name)) return null;
  const edit = byEdit(t, name);
  if (edit) return { similar_to: edit, how: "edit" };
  const affix = byAffix(t, name);
  if (affix) return { similar_to: affix, how: "affix" };
  const glyph = t.skeletons.get(skeleton(name));
  return glyph && glyph !== name ? { similar_to: glyph, how: "homoglyph" } : null;
}

/** A linear scan: asked only for a name PyPI does not know, never on the common path. */
function nearestIn(t: Tables, name: string, limit: number): string[] {
  const max = Math.max(2, Math.floor(name.length / 3));
  const scored: Array<[string, number]> = [];
  for (const candidate of t.rank.keys()) {
    if (candidate === name) continue;
    // A popular name that contains the whole name (`pycairo` for `cairo`) is as near as one edit.
    const d = name.length >= 4 && candidate.includes(name) ? 1 : distance(name, candidate, max);
    if (d <= max) scored.push([candidate, d]);
  }
  const first = lookalikeIn(t, name)?.similar_to;
  const ranked = scored
    .sort((a, b) => a[1] - b[1] || t.rank.get(a[0])! - t.rank.get(b[0])!)
    .map(([n]) => n)
    .filter((n) => n !== first);
  return (first ? [first, ...ranked] : ranked).slice(0, limit);
}

/**
 * Builds the index over `names` (PEP 503 names, most popular first: the
 * order breaks ties between candidates).
 *
 * @example
 * ```ts
 * import { createPopularIndex } from "./popular_index.ts";
 * const index = createPopularIndex(["requests", "numpy", "python-dateutil"]);
 * index.lookalike("reqeusts"); // { similar_to: "requests", how: "edit" }
 * index.lookalike("dateutil"); // { similar_to: "python-dateutil", how: "affix" }
 * index.lookalike("requests"); // null
 * ```
 */
export function createPopularIndex(names: Iterable<string>): PopularIndex {
  const t = tablesOf(names);
  return {
    size: t.rank.size,
    has: (name) => t.rank.has(name),
    lookalike: (name) => lookalikeIn(t, name),
    nearest: (name, limit) => nearestIn(t, name, limit),
  };
}

/** An index without names: nothing is popular, nothing looks alike. */
export const EMPTY_POPULAR_INDEX: PopularIndex = createPopularIndex([]);

/**
 * Two indexes as one: a name is popular in either; a look-alike of `first`
 * (the registry's own packages) wins over one of `second`.
 *
 * @example
 * ```ts
 * import { combineIndexes, createPopularIndex } from "./popular_index.ts";
 * const both = combineIndexes(createPopularIndex(["acme-billing"]), createPopularIndex(["requests"]));
 * both.lookalike("acme-biling")?.similar_to; // "acme-billing"
 * both.has("requests"); // true
 * ```
 */
export function combineIndexes(first: PopularIndex, second: PopularIndex): PopularIndex {
  if (first.size === 0) return second;
  return {
    size: first.size + second.size,
    has: (name) => first.has(name) || second.has(name),
    lookalike: (name) =>
      first.has(name) || second.has(name) ? null : first.lookalike(name) ?? second.lookalike(name),
    nearest: (name, limit) =>
      [...new Set([...first.nearest(name, limit), ...second.nearest(name, limit)])].slice(0, limit),
  };
}
