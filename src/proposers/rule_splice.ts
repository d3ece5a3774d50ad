/**
 * Editing one rule of a registry YAML text in place (issue #29 point 7): the
 * `yaml` Document API locates the `packages` list and the rule's nodes
 * (their source ranges), and only those bytes are rewritten. Comments,
 * `version:`, key order, list and quoting style of everything else stay
 * byte-identical. Within a replaced rule, only changed values are rewritten,
 * removed keys lose their line and new keys get a line of their own.
 *
 * @module
 */
import {
  type Document,
  isMap,
  isScalar,
  isSeq,
  type Pair,
  parseDocument,
  Scalar,
  stringify,
  type YAMLMap,
} from "yaml";
import { normalizeName } from "../core/names.ts";

/** A rule as written to YAML: keys in their canonical order, no empty fields. */
export type RuleFields = Readonly<Record<string, string>>;

/** One replacement of `text.slice(from, to)`. */
interface Splice {
  from: number;
  to: number;
  text: string;
}

/** Start of the line holding `pos`. */
function lineStart(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

/** Offset just past the line that ends the span ending at `end` (after its newline). */
function lineEndAfter(text: string, end: number): number {
  if (end > 0 && text[end - 1] === "\n") return end;
  const newline = text.indexOf("\n", end);
  return newline < 0 ? text.length : newline + 1;
}

/** A one-line YAML rendering of a string value (quoted when YAML would read it otherwise). */
function scalarText(value: string): string | null {
  const out = stringify(value, { lineWidth: 0 }).replace(/\n$/, "");
  return out.includes("\n") ? null : out;
}

function nameOf(item: unknown): string | null {
  if (!isMap(item)) return null;
  const name = (item as YAMLMap).get("name");
  return typeof name === "string" ? normalizeName(name.trim()) : null;
}

function keyOf(pair: Pair): string | null {
  return isScalar(pair.key) && typeof pair.key.value === "string" ? pair.key.value : null;
}

/** The lines of a new rule, the first after `- `, the others at `keyCol`. */
function ruleLines(fields: RuleFields, dashCol: number, keyCol: number): string | null {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const rendered = scalarText(value);
    if (rendered === null) return null;
    lines.push(`${key}: ${rendered}`);
  }
  const first = `${" ".repeat(dashCol)}-${" ".repeat(Math.max(1, keyCol - dashCol - 1))}`;
  return first + lines.join(`\n${" ".repeat(keyCol)}`) + "\n";
}

/** Columns of an item's `-` and of its keys, or null when the layout is not a plain block item. */
function itemColumns(text: string, item: YAMLMap): { dashCol: number; keyCol: number } | null {
  const start = item.range?.[0];
  if (start === undefined) return null;
  const from = lineStart(text, start);
  const prefix = text.slice(from, start);
  if (!/^ *- +$/.test(prefix)) return null;
  return { dashCol: prefix.indexOf("-"), keyCol: start - from };
}

/** Edits of one existing block rule so that it says `fields`; null when not possible in place. */
function editRule(text: string, item: YAMLMap, fields: RuleFields): Splice[] | null {
  if (item.flow) return null;
  const columns = itemColumns(text, item);
  if (!columns) return null;
  const splices: Splice[] = [];
  const seen = new Set<string>();
  let lastEnd = item.range![0];
  for (const pair of item.items as Pair[]) {
    const key = keyOf(pair);
    const value = pair.value;
    if (key === null || !isScalar(value) || !value.range) return null;
    seen.add(key);
    lastEnd = Math.max(lastEnd, value.range[2]);
    const wanted = fields[key];
    if (key === "name") continue; // matched by normalised name: the author's spelling stays
    if (wanted === undefined) {
      // The key goes: its line(s) go, unless it shares the `- ` line.
      const from = lineStart(text, (pair.key as Scalar).range![0]);
      if (from === lineStart(text, item.range![0])) return null;
      splices.push({ from, to: lineEndAfter(text, value.range[2]), text: "" });
      continue;
    }
    if (value.value === wanted) continue;
    const block = value.type === Scalar.BLOCK_FOLDED || value.type === Scalar.BLOCK_LITERAL;
    const rendered = scalarText(wanted);
    if (block || rendered === null) return null;
    splices.push({ from: value.range[0], to: value.range[1], text: rendered });
  }
  const added: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (seen.has(key)) continue;
    const rendered = scalarText(value);
    if (rendered === null) return null;
    added.push(`${" ".repeat(columns.keyCol)}${key}: ${rendered}\n`);
  }
  if (added.length) {
    const at = lineEndAfter(text, lastEnd);
    const newline = at === text.length && !text.endsWith("\n") ? "\n" : "";
    splices.push({ from: at, to: at, text: newline + added.join("") });
  }
  return splices;
}

/**
 * The whole rule rewritten as a block rule where it stands (a flow rule, a
 * multi-line value): its `- ` stays, its own comments go with it.
 */
function replaceRule(text: string, item: YAMLMap, fields: RuleFields): Splice[] | null {
  const columns = item.flow ? flowColumns(text, item) : itemColumns(text, item);
  const lines = columns && ruleLines(fields, columns.dashCol, columns.keyCol);
  if (!lines || !item.range) return null;
  const [from, to] = item.range;
  const body = lines.slice(columns!.keyCol).replace(/\n$/, "");
  return [{ from, to, text: text.slice(from, to).endsWith("\n") ? `${body}\n` : body }];
}

/** Applies splices (non-overlapping) from the end, so earlier offsets stay valid. */
function apply(text: string, splices: Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.from - a.from || b.to - a.to)) {
    out = out.slice(0, s.from) + s.text + out.slice(s.to);
  }
  return out;
}

/**
 * Inserts or replaces the rule `fields` (matched by the PEP 503 form of
 * `fields.name`) in the registry YAML `text`, touching only that rule's
 * bytes. A new rule goes after the last rule whose name sorts before it
 * (so a sorted list stays sorted and a section comment stays with the rule
 * below it). Returns the new text (equal to `text` when nothing changes), or
 * null when the document's layout does not allow an in-place edit (a flow
 * `packages: [...]`, a flow or compact rule being changed, a multi-line
 * value), in which case the caller re-renders the document.
 *
 * @example
 * ```ts
 * const text = "# team registry\nversion: \"1\"\npackages:\n  - name: b\n    status: approved\n";
 * spliceRule(text, { name: "a", status: "banned" });
 * // "# team registry\nversion: \"1\"\npackages:\n  - name: a\n    status: banned\n  - name: b\n…"
 * ```
 */
export function spliceRule(text: string, fields: RuleFields): string | null {
  // A file with Windows line endings throughout keeps them: edit its LF form, then convert back.
  const crlf = text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
  if (crlf) {
    const edited = spliceLf(text.replaceAll("\r\n", "\n"), fields);
    return edited === null ? null : edited.replaceAll("\n", "\r\n");
  }
  return spliceLf(text, fields);
}

/** {@link spliceRule} on a text whose lines end in `\n` (or, mixed, are left as they are). */
function spliceLf(text: string, fields: RuleFields): string | null {
  const doc: Document = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) return null;
  const name = normalizeName(fields.name);
  const root = doc.contents;
  if (root === null || (isMap(root) && !root.flow && !root.has("packages"))) {
    // No rule list yet: append one; everything above stays as it is.
    const lines = ruleLines(fields, 2, 4);
    if (lines === null) return null;
    const newline = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${newline}packages:\n${lines}`;
  }
  if (!isMap(root)) return null;
  const packages = root.get("packages", true);
  if (!isSeq(packages) || packages.flow || packages.items.length === 0) return null;
  const items = packages.items as YAMLMap[];
  const existing = items.findIndex((item) => nameOf(item) === name);
  if (existing >= 0) {
    const item = items[existing];
    const splices = editRule(text, item, fields) ?? replaceRule(text, item, fields);
    return splices === null ? null : apply(text, splices);
  }
  const later = items.findIndex((item) => (nameOf(item) ?? "") > name);
  const neighbour = items[later < 0 ? items.length - 1 : later === 0 ? 0 : later - 1];
  const columns = isMap(neighbour) && !neighbour.flow
    ? itemColumns(text, neighbour)
    : isMap(neighbour) && neighbour.range
    ? flowColumns(text, neighbour)
    : null;
  if (!columns || !neighbour.range) return null;
  const lines = ruleLines(fields, columns.dashCol, columns.keyCol);
  if (lines === null) return null;
  if (later === 0) {
    const at = lineStart(text, neighbour.range[0]);
    return apply(text, [{ from: at, to: at, text: lines }]);
  }
  const at = lineEndAfter(text, neighbour.range[2]);
  const newline = at === text.length && !text.endsWith("\n") ? "\n" : "";
  return apply(text, [{ from: at, to: at, text: newline + lines }]);
}

/** Columns for a new block rule next to a flow rule (`- {name: a, …}`). */
function flowColumns(text: string, item: YAMLMap): { dashCol: number; keyCol: number } | null {
  const start = item.range![0];
  const prefix = text.slice(lineStart(text, start), start);
  if (!/^ *- +$/.test(prefix)) return null;
  const dashCol = prefix.indexOf("-");
  return { dashCol, keyCol: dashCol + 2 };
}
