/**
 * `sed` scripts applied to a copy of a file, so the gate sees what `sed -i` would make of a
 * manifest: substitutions (`s/re/text/g`, any delimiter, basic or `-E` regular expressions) and
 * appended, inserted or changed lines (`/re/a text`, `$a\ text`, `3i text`), each optionally
 * after an address. Anything else is unreadable (null), which the gate treats as such.
 *
 * @module
 */

/** A sed basic (or extended) regular expression as a JavaScript one. */
function regexSource(re: string, extended: boolean): string {
  if (extended) return re;
  let out = "";
  for (let i = 0; i < re.length; i++) {
    const ch = re[i];
    if (ch === "\\" && i + 1 < re.length) {
      const next = re[++i];
      out += "(){}+?|".includes(next) ? next : `\\${next}`;
    } else out += "(){}+?|".includes(ch) ? `\\${ch}` : ch;
  }
  return out;
}

/** A sed replacement as a JavaScript replacement string. */
function replacementOf(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[++i];
      out += /\d/.test(next) ? `$${next}` : next === "n" ? "\n" : next === "$" ? "$$" : next;
    } else out += ch === "&" ? "$&" : ch === "$" ? "$$" : ch;
  }
  return out;
}

/** Which lines a command applies to: all, a line number, the last, or lines matching. */
type Address = { kind: "all" } | { kind: "line"; n: number } | { kind: "last" } | {
  kind: "match";
  re: RegExp;
};

function addressOf(script: string, extended: boolean): [Address, string] | null {
  if (script.startsWith("$")) return [{ kind: "last" }, script.slice(1)];
  const n = /^(\d+)/.exec(script);
  if (n) return [{ kind: "line", n: Number(n[1]) }, script.slice(n[1].length)];
  if (script.startsWith("/")) {
    const end = script.indexOf("/", 1);
    if (end < 0) return null;
    const re = new RegExp(regexSource(script.slice(1, end), extended));
    return [{ kind: "match", re }, script.slice(end + 1)];
  }
  return [{ kind: "all" }, script];
}

function applies(address: Address, line: string, index: number, count: number): boolean {
  switch (address.kind) {
    case "all":
      return true;
    case "line":
      return index + 1 === address.n;
    case "last":
      return index === count - 1;
    case "match":
      return address.re.test(line);
  }
}

/** `text` after one sed command, or null when the command is not one this module reads. */
function applyOne(text: string, script: string, extended: boolean): string | null {
  const parsed = addressOf(script.trim(), extended);
  if (parsed === null) return null;
  const [address, rest] = parsed;
  const body = rest.trim();
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const out: string[] = [];
  if (body.startsWith("s") && body.length > 1) {
    const d = body[1];
    const parts = body.slice(2).split(d);
    if (parts.length < 3) return null;
    const [re, repl, flags] = [parts[0], parts[1], parts.slice(2).join(d)];
    if (!/^[gIi\d]*$/.test(flags)) return null;
    const pattern = new RegExp(
      regexSource(re, extended),
      (flags.includes("g") ? "g" : "") + (/[Ii]/.test(flags) ? "i" : ""),
    );
    lines.forEach((line, i) => {
      out.push(
        applies(address, line, i, lines.length) ? line.replace(pattern, replacementOf(repl)) : line,
      );
    });
  } else if (/^[aic]/.test(body)) {
    const added = body.slice(1).replace(/^\\?\s*\n?/, "").replaceAll("\\n", "\n");
    lines.forEach((line, i) => {
      const hit = applies(address, line, i, lines.length);
      if (hit && body[0] === "i") out.push(added);
      if (!(hit && body[0] === "c")) out.push(line);
      if (hit && body[0] !== "i") out.push(added);
    });
  } else return null;
  return out.join("\n") + "\n";
}

/**
 * The text after a list of sed scripts (each `-e` or the one script argument; `;`-separated
 * substitutions too), or null when a command is not readable here.
 */
export function applySed(text: string, scripts: string[], extended: boolean): string | null {
  let current: string | null = text;
  for (const script of scripts) {
    const commands = /^\s*(\S*\s*)?s(.)/.test(script) ? [script] : script.split(/\n/);
    for (const command of commands) {
      if (current === null || command.trim() === "") continue;
      current = applyOne(current, command, extended);
    }
  }
  return current;
}

/** The `-i` files, scripts and `-E` flag of a `sed` command's arguments; null without `-i`. */
export function sedInPlace(
  args: string[],
): { files: string[]; scripts: string[]; extended: boolean } | null {
  let inPlace = false;
  let extended = false;
  const scripts: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-e" || arg === "--expression") scripts.push(args[++i] ?? "");
    else if (arg.startsWith("--expression=")) scripts.push(arg.slice(13));
    else if (arg.startsWith("--in-place")) inPlace = true;
    else if (arg === "-E" || arg === "-r" || arg === "--regexp-extended") extended = true;
    else if (/^-[A-Za-z]+/.test(arg) && !arg.startsWith("--")) {
      if (arg.includes("i")) inPlace = true;
      if (/[Er]/.test(arg)) extended = true;
    } else rest.push(arg);
  }
  if (!inPlace) return null;
  if (scripts.length === 0 && rest.length) scripts.push(rest.shift()!);
  return { files: rest, scripts, extended };
}
