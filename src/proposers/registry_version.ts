/**
 * A fresh `version:` for a registry a proposer has edited. The registry
 * version must identify the rules (`registry_version` in every decision and
 * audit row), so a changed document cannot keep an authored label as it is.
 * Only the value's bytes change; every other line stays byte-identical.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { isMap, isScalar, parseDocument, Scalar, stringify } from "yaml";

/** The suffix a previous edit appended (`+` and 12 hex digits), dropped before a new one. */
const EDIT_SUFFIX = /\+[0-9a-f]{12}$/;

/** The author's label of a version: the value without an earlier edit's suffix. */
export function versionLabel(version: string): string {
  return version.replace(EDIT_SUFFIX, "");
}

/**
 * The version an edited registry carries: the author's `label` plus `+` and
 * the first 12 hex digits of the SHA-256 of `labelledText`, the edited
 * document with its version value set to the bare label. So the version
 * depends on the document's content alone: the same rules give the same
 * version (a rule added and withdrawn again leaves the same text and version
 * every time), different rules a different one.
 *
 * @example
 * ```ts
 * editedVersion("2026.11.21", 'version: "2026.11.21"\n…'); // "2026.11.21+3f9a1c2b7d4e"
 * ```
 */
export function editedVersion(label: string, labelledText: string): string {
  const hash = createHash("sha256").update(labelledText).digest("hex").slice(0, 12);
  return `${label}+${hash}`;
}

/** The new value written in the old value's quoting style, on one line. */
function render(node: Scalar, value: string): string {
  if (node.type === Scalar.QUOTE_DOUBLE) return JSON.stringify(value);
  if (node.type === Scalar.QUOTE_SINGLE) return `'${value.replaceAll("'", "''")}'`;
  const plain = stringify(value, { lineWidth: 0 }).replace(/\n$/, "");
  return plain.includes("\n") ? JSON.stringify(value) : plain;
}

/**
 * Rewrites the value of the top-level `version:` of an edited registry text
 * with {@link editedVersion} (the value's quoting and the line's comment
 * kept); returns `text` unchanged when the document has
 * no (scalar) `version:` (compile then names the registry by its content hash).
 *
 * @example
 * ```ts
 * refreshVersion('version: "1"\npackages: []\n'); // 'version: "1+…"\npackages: []\n'
 * ```
 */
export function refreshVersion(text: string): string {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length || !isMap(doc.contents)) return text;
  const node = doc.contents.get("version", true);
  if (!isScalar(node) || !node.range || node.value === null || node.value === undefined) {
    return text;
  }
  const [from, to] = node.range;
  const block = node.type === Scalar.BLOCK_FOLDED || node.type === Scalar.BLOCK_LITERAL;
  const write = (value: string) =>
    text.slice(0, from) + (block ? `${JSON.stringify(value)}\n` : render(node, value)) +
    text.slice(to);
  const label = versionLabel(String(node.value).trim());
  return write(editedVersion(label, write(label)));
}
