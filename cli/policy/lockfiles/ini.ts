/**
 * The INI dialect of `setup.cfg` and `tox.ini` (Python's `configparser`):
 * `[section]` headers, `key = value` or `key: value`, values continued on
 * indented lines, `#`/`;` comment lines. Only what the two readers need:
 * each value's lines with their line numbers.
 *
 * @module
 */

/** One physical line of a value. */
export interface ValueLine {
  text: string;
  /** 1-based. */
  line: number;
}

/** section → key (lower-cased) → the value's non-empty lines. */
export type IniDocument = Map<string, Map<string, ValueLine[]>>;

/** Reads INI text; lines it cannot place are ignored, as configparser's readers do not fail on values. */
export function readIni(source: string): IniDocument {
  const doc: IniDocument = new Map();
  let section: Map<string, ValueLine[]> | null = null;
  let value: ValueLine[] | null = null;
  source.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (/^\s*[#;]/.test(raw) || raw.trim() === "") return;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = doc.get(header[1].trim()) ?? new Map();
      doc.set(header[1].trim(), section);
      value = null;
      return;
    }
    const text = raw.replace(/\s+[#;].*$/, "");
    if (/^\s/.test(raw) && value) {
      value.push({ text: text.trim(), line });
      return;
    }
    const pair = /^([^=:\s][^=:]*?)\s*[=:]\s*(.*)$/.exec(text);
    if (!pair || section === null) {
      value = null;
      return;
    }
    value = [];
    (section as Map<string, ValueLine[]>).set(pair[1].trim().toLowerCase(), value);
    if (pair[2].trim()) value.push({ text: pair[2].trim(), line });
  });
  return doc;
}
