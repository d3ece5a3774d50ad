/**
 * Line numbers for parsed documents. The TOML and JSON parsers return plain
 * values without positions, so the pinning line is found in the text: the
 * n-th `[[key]]` header of a TOML array of tables holds the n-th element,
 * and a JSON object key is the first line after its section that names it.
 *
 * @module
 */

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The line of each element of the TOML array of tables `key`, pointing at
 * its `name = …` line (else at its `[[key]]` header). Null when the headers
 * do not match the parsed element count (an inline array, for instance).
 */
export function arrayTableLines(text: string, key: string, count: number): number[] | null {
  const lines = text.split("\n");
  const header = new RegExp(
    `^\\s*\\[\\[\\s*(?:${escapeRegExp(key)}|"${escapeRegExp(key)}")\\s*\\]\\]`,
  );
  const anyHeader = /^\s*\[/;
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (header.test(line)) starts.push(i);
  });
  if (starts.length !== count) return null;
  return starts.map((start) => {
    for (let i = start + 1; i < lines.length && !anyHeader.test(lines[i]); i++) {
      if (/^\s*name\s*=/.test(lines[i])) return i + 1;
    }
    return start + 1;
  });
}

/** The first line at or after `fromLine` where `"key":` (a JSON member) starts, else `fromLine`. */
export function jsonKeyLine(text: string, key: string, fromLine = 1): number {
  const lines = text.split("\n");
  const member = new RegExp(`^\\s*${escapeRegExp(JSON.stringify(key))}\\s*:`);
  for (let i = Math.max(0, fromLine - 1); i < lines.length; i++) {
    if (member.test(lines[i])) return i + 1;
  }
  return fromLine;
}

/** The first line containing `needle`, else `fallback`. */
export function lineContaining(text: string, needle: string, fallback = 1): number {
  const at = text.indexOf(needle);
  return at < 0 ? fallback : lineAt(text, at);
}

/** The first line matching `pattern`, else `fallback`. */
export function lineMatching(text: string, pattern: RegExp, fallback = 1): number {
  const lines = text.split("\n");
  const i = lines.findIndex((line) => pattern.test(line));
  return i < 0 ? fallback : i + 1;
}

/** A regular expression matching `text` literally. */
export function literal(text: string): string {
  return escapeRegExp(text);
}
