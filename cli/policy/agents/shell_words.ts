/**
 * A shell command line as simple commands of words, for the agent gate. npm `shell-quote`
 * splits words and operators; the glue here gives it what it does not read itself: here-documents
 * (their text becomes the command's input), `${VAR:-word}`-style expansions (rewritten to what
 * they can expand to), a `#` inside a word (kept: only a `#` starting a word is a comment),
 * newlines as command separators, and variables assigned earlier in the line or by a `for` loop
 * over literal words (expanded in order; unknown ones stay `$NAME`).
 *
 * @module
 */

import { parse as parseShell } from "shell-quote";
import type { ParseEntry } from "shell-quote";

/** A redirection of a command's output (`>`, `>>`) or input (`<`). */
export interface Redirect {
  op: string;
  target: string;
}

/** One simple command after expansion. */
export interface ShellCommand {
  /** Words after variable expansion; an unknown variable stays `$NAME`, `$(…)` is opaque. */
  words: string[];
  redirects: Redirect[];
  /** Text on standard input when known: a here-document, or `echo`/`printf`/`cat` piped in. */
  input: string | null;
  /** The file standard input comes from (`< FILE`, `cat FILE |`), if any. */
  stdin: string | null;
}

const SEPARATORS = new Set(["&&", "||", ";", ";;", "|", "|&", "&", "(", ")"]);
const REDIRECT = /^(<|>|>>|>&|<&|>\||&>|&>>|<<<)$/;
/** Leading keywords of compound commands; the rest of the words are a command. */
const KEYWORDS = new Set(["do", "then", "else", "elif", "if", "while", "until", "!", "{"]);
/** Words that end a compound command and run nothing. */
const CLOSERS = new Set(["done", "fi", "}", "esac"]);
const VAR_START = "\u0001";
const VAR_END = "\u0002";
const HEREDOC = "\u0003heredoc";

/** Cuts here-documents out of the text; each becomes `< \u0003heredocN` with its body kept. */
function extractHeredocs(command: string, bodies: string[]): string {
  const lines = command.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const pending: Array<{ word: string; strip: boolean }> = [];
    const line = lines[i].replace(
      /<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/g,
      (match, dash: string, _q: string, word: string, at: number, all: string) => {
        if (all[at + match.length] === "<" || all[at - 1] === "<") return match;
        pending.push({ word, strip: dash === "-" });
        return `< ${HEREDOC}${bodies.length + pending.length - 1}`;
      },
    );
    out.push(line);
    for (const { word, strip } of pending) {
      const body: string[] = [];
      while (++i < lines.length) {
        const text = strip ? lines[i].replace(/^\t+/, "") : lines[i];
        if (text.trim() === word) break;
        body.push(text);
      }
      bodies.push(body.length ? body.join("\n") + "\n" : "");
    }
  }
  return out.join("\n");
}

/** Index of the `}` closing the `${` at `start`, or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** What `${…}` can expand to, in words shell-quote reads: the variable, or its alternative. */
function rewriteExpansion(inner: string, assigned: (name: string) => boolean): string {
  const m = /^#?([A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?])(.*)$/s.exec(inner);
  if (!m) return "$(…)";
  const [, name, rest] = m;
  const op = /^(:?[-+=?])(.*)$/s.exec(rest);
  if (op === null) return `\${${name}}`;
  const word = op[2];
  if (op[1].endsWith("+")) return word; // ${VAR:+word}: read the alternative
  if (op[1].endsWith("-") || op[1].endsWith("=")) return assigned(name) ? `\${${name}}` : word;
  return `\${${name}}`;
}

/**
 * Quote-aware rewriting shell-quote needs: `${…}` forms it rejects ("Bad substitution"), a `#`
 * inside a word (escaped, so it is not read as a comment) and newlines outside quotes (`;`, with
 * `\`-continued lines joined).
 */
export function prepare(command: string): string {
  const assigned = (name: string) => new RegExp(`(^|[\\s;&|(])${name}=`).test(command);
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (ch === "\\" && quote !== "'" && i + 1 < command.length) {
      if (command[i + 1] === "\n") out += " ";
      else out += ch + command[i + 1];
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (quote === null) quote = ch;
      else if (quote === ch) quote = null;
      out += ch;
    } else if (ch === "$" && command[i + 1] === "{" && quote !== "'") {
      const end = closingBrace(command, i + 1);
      if (end < 0) {
        out += "$(…)";
        break;
      }
      out += rewriteExpansion(command.slice(i + 2, end), assigned);
      i = end;
    } else if (ch === "#" && quote === null) {
      // a `#` starting a word comments out the rest of its line; inside a word it is text
      if (i > 0 && !/[\s;&|()<>]/.test(command[i - 1])) out += "\\#";
      else while (i + 1 < command.length && command[i + 1] !== "\n") i++;
    } else if (ch === "\n" && quote === null) {
      out += " ; ";
    } else out += ch;
  }
  return out;
}

/** Variables known so far: one value, or the literal words a `for` loop runs over. */
export type Variables = Map<string, string[]>;

/** A word with its variables expanded; a variable holding several words gives several words. */
function expand(word: string, vars: Variables): string[] {
  const start = word.indexOf(VAR_START);
  if (start < 0) return [word];
  const end = word.indexOf(VAR_END, start);
  const name = word.slice(start + 1, end);
  const head = word.slice(0, start);
  const tail = expand(word.slice(end + 1), vars);
  const values = vars.get(name);
  if (values === undefined) return tail.map((t) => `${head}$${name}${t}`);
  // an unquoted variable alone splits into words; inside a word its value is pasted in
  const parts = head === "" && tail.length === 1 && tail[0] === ""
    ? values.flatMap((v) => v.split(/\s+/).filter(Boolean))
    : values;
  return parts.flatMap((v) => tail.map((t) => `${head}${v}${t}`));
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
const DECLARE = new Set(["export", "local", "declare", "readonly", "typeset"]);

/** Records the assignments of a command that only assigns (`A=1`, `export A=1`); true if it did. */
function assign(words: string[], vars: Variables): boolean {
  const rest = DECLARE.has(words[0]) ? words.slice(1).filter((w) => !w.startsWith("-")) : words;
  if (rest.length === 0 || !rest.every((w) => ASSIGNMENT.test(w))) return false;
  for (const word of rest) {
    const [, name, value] = ASSIGNMENT.exec(word)!;
    vars.set(name, [value]);
  }
  return true;
}

/** Drops compound-command keywords; records `for NAME in WORDS` (null: nothing to run). */
function unwrapCompound(words: string[], vars: Variables): string[] | null {
  let i = 0;
  while (i < words.length && KEYWORDS.has(words[i])) i++;
  const rest = words.slice(i);
  if (rest.length === 0 || CLOSERS.has(rest[0])) return null;
  if (rest[0] === "for" && rest[2] === "in") {
    vars.set(rest[1], rest.slice(3));
    return null;
  }
  if (rest[0] === "case" || rest[0] === "select") return null;
  return rest;
}

function isRedirect(entry: ParseEntry): boolean {
  return typeof entry === "object" && "op" in entry && REDIRECT.test(entry.op);
}

/** Output of `echo`/`printf`/`cat <<EOF` as far as it is known, for a pipe or a redirect. */
export function outputOf(command: ShellCommand): string | null {
  const [prog, ...args] = command.words;
  if (prog === "echo") {
    const words = args.filter((w, i) => !(i === 0 && /^-[neE]+$/.test(w)));
    const noNewline = /^-[eE]*n/.test(args[0] ?? "");
    return words.join(" ").replaceAll("\\n", "\n") + (noNewline ? "" : "\n");
  }
  if (prog === "printf" && args.length > 0) {
    return args[0].replaceAll("\\n", "\n").replace(/%s/g, () => args.slice(1).join(" "));
  }
  if (prog === "cat" && args.length === 0) return command.input;
  return null;
}

/**
 * The simple commands of a command line in order, variables expanded. A command substitution
 * `$(…)` is one opaque word of the command around it, and its own commands are listed too.
 * Throws what shell-quote throws on text it cannot split.
 */
export function shellCommands(command: string, vars: Variables = new Map()): ShellCommand[] {
  const bodies: string[] = [];
  const entries = parseShell(
    prepare(extractHeredocs(command, bodies)),
    (key) => key === "" ? "$" : `${VAR_START}${key}${VAR_END}`,
  );
  const commands: ShellCommand[] = [];
  let raw: string[] = [];
  let current: ShellCommand = { words: [], redirects: [], input: null, stdin: null };
  const outer: Array<{ raw: string[]; current: ShellCommand }> = [];
  const finish = (op: string | null) => {
    const words = unwrapCompound(raw.flatMap((w) => expand(w, vars)), vars);
    const done = current;
    done.words = words ?? [];
    raw = [];
    current = { words: [], redirects: [], input: null, stdin: null };
    if (words !== null && !assign(words, vars)) commands.push(done);
    if (op === "|" && words !== null) {
      current.input = outputOf(done);
      if (done.words[0] === "cat" && done.words.length === 2) current.stdin = done.words[1];
    }
  };
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (typeof entry === "string") {
      raw.push(entry);
    } else if ("comment" in entry) {
      continue;
    } else if (entry.op === "glob") {
      raw.push((entry as { pattern: string }).pattern);
    } else if (isRedirect(entry)) {
      if (/^\d$/.test(raw[raw.length - 1] ?? "")) raw.pop(); // the fd of `2>&1`
      const next = entries[++i];
      const target = typeof next === "string" ? expand(next, vars)[0] : "";
      if (target.startsWith(HEREDOC)) current.input = bodies[Number(target.slice(HEREDOC.length))];
      else if (entry.op === "<<<") current.input = target + "\n";
      else if (entry.op === "<") current.stdin = target;
      else current.redirects.push({ op: entry.op, target });
    } else if (entry.op === "<(" || (entry.op === "(" && raw[raw.length - 1]?.endsWith("$"))) {
      // `$(…)` and `<(…)`: one opaque word here, the commands inside read on their own
      if (entry.op === "<(") raw.push("$(…)");
      else raw[raw.length - 1] += "(…)";
      outer.push({ raw, current });
      raw = [];
      current = { words: [], redirects: [], input: null, stdin: null };
    } else if (entry.op === ")" && outer.length > 0) {
      finish(null);
      ({ raw, current } = outer.pop()!);
    } else if (SEPARATORS.has(entry.op)) {
      finish(entry.op);
    }
  }
  finish(null);
  return commands.filter((c) => c.words.length > 0);
}

/** The words of each simple command (see {@link shellCommands}). */
export function simpleCommands(command: string): string[][] {
  return shellCommands(command).map((c) => c.words);
}
