/**
 * What an agent's shell command would do to a project's dependencies: the packages it installs
 * (`pip install`, `uv add`, `poetry run pip install`, …), the manifests it writes (`echo … >>
 * requirements.txt`, heredocs, `sed -i`), the package indexes it points installers at, the
 * gate files it touches, the approvals it would give itself, and what it cannot read. Pure:
 * files are read through the injected reader. Words: `shell_words.ts`; installers:
 * `shell_installers.ts`; requirements: `shell_requirements.ts`; writes: `shell_writes.ts`.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { pinnedVersion } from "../pyproject.ts";
import { requirementsFileEntries } from "./manifests.ts";
import { shellCommands } from "./shell_words.ts";
import type { ShellCommand, Variables } from "./shell_words.ts";
import { installOf, INTERPRETER_REQUEST, program, stripPrefix } from "./shell_installers.ts";
import type { Install } from "./shell_installers.ts";
import { editable, isUnresolved, requested } from "./shell_requirements.ts";
import type { RequestedPackage } from "./shell_requirements.ts";
import { FILE_OPTIONS, INDEX_OPTIONS, INDEX_VARIABLES, PACKAGE_OPTIONS } from "./shell_options.ts";
import { writesOf } from "./shell_writes.ts";
import { indirectLines } from "./shell_indirect.ts";
import type { FileChange } from "./payload.ts";

export type { RequestedPackage } from "./shell_requirements.ts";

/** Reads a text file; null when it cannot be read. */
export type ReadText = (path: string) => string | null;

/** Everything the gate needs to know about one command line. */
export interface ShellReading {
  /** Packages installed, in order. */
  packages: RequestedPackage[];
  /** Manifests written, on a copy (their additions are gated like an edit). */
  changes: FileChange[];
  /** Paths written, moved or removed. */
  touched: string[];
  /** Package index URLs installers are pointed at (options, variables, `pip config`). */
  indexes: string[];
  /** Commands that would approve a package (`policy approve`, a POST to the proposals API). */
  approvals: string[];
  /** Commands that would switch the gate off (`policy uninstall`, `git config core.hooksPath`). */
  disables: string[];
  /** What could not be read, one phrase each. */
  problems: string[];
}

const HTTP_CLIENTS = new Set(["curl", "wget", "http", "https", "xh", "httpie"]);
const XARGS_VALUES = /^-[aIiLlnPsdEe]$/;

interface State {
  cwd: string;
  read: ReadText;
  depth: number;
  out: ShellReading;
}

function pathIn(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function fromFile(path: string, state: State, seen = new Set<string>()): void {
  if (seen.has(path) || seen.size > 20) return;
  seen.add(path);
  const text = state.read(path);
  if (text === null) return;
  const entries = requirementsFileEntries(text);
  for (const [name, spec] of entries.packages) {
    state.out.packages.push({ name, spec, version: pinnedVersion(spec) });
  }
  for (const nested of entries.files) fromFile(resolve(path, "..", nested), state, seen);
}

/** The option a word names and its inline value (`--opt=v`, `-rFILE`, `-Ur FILE`). */
function optionOf(word: string, takesValue: (o: string) => boolean) {
  const eq = word.indexOf("=");
  if (word.startsWith("--")) {
    return eq > 0
      ? { option: word.slice(0, eq), inline: word.slice(eq + 1) }
      : { option: word, inline: null };
  }
  for (let i = 1; i < word.length && /[A-Za-z]/.test(word[i]); i++) {
    const option = `-${word[i]}`;
    if (!takesValue(option)) continue;
    const rest = word.slice(i + 1).replace(/^=/, "");
    return { option, inline: rest === "" ? null : rest };
  }
  return { option: word, inline: null };
}

function readInstall(install: Install, cwd: string, state: State): void {
  const { args, values, positional } = install;
  const out = state.out;
  const takesValue = (o: string) => FILE_OPTIONS.has(o) || PACKAGE_OPTIONS.has(o) || values.has(o);
  const add = (word: string) => {
    if (isUnresolved(word) && !/@\s*\S+:\/\//.test(word) && !/^\$\w+\/|^\$\{\w+\}\//.test(word)) {
      // `name==$VERSION`: the name is read, the version is not
      const named = /^([A-Za-z0-9][A-Za-z0-9._-]*(\[[^\]$]*\])?)\s*(===?|~=|!=|<=?|>=?|@)/.exec(
        word,
      );
      if (named) out.packages.push({ ...requested(named[1])!, spec: word });
      else out.problems.push(`cannot tell which package \`${word}\` names`);
      return;
    }
    const pkg = requested(word);
    if (pkg) out.packages.push(pkg);
  };
  const directory = args.findIndex((w) => w === "--directory" || w === "--project");
  const where = directory >= 0 && args[directory + 1] ? pathIn(cwd, args[directory + 1]) : cwd;
  let seenPositional = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === "--") continue;
    if (word.startsWith("-")) {
      const { option, inline } = optionOf(word, takesValue);
      if (!takesValue(option)) continue;
      const value = inline ?? args[++i];
      if (value === undefined) break;
      if (FILE_OPTIONS.has(option)) {
        if (isUnresolved(value)) out.problems.push(`cannot tell which file \`${value}\` is`);
        else fromFile(pathIn(where, value), state);
      } else if (PACKAGE_OPTIONS.has(option)) {
        for (const part of value.split(",")) add(part);
      } else if (option === "-e" || option === "--editable") {
        const pkg = editable(value);
        if (pkg) out.packages.push(pkg);
      } else if (INDEX_OPTIONS.has(option)) {
        out.indexes.push(value.replace(/^[\w.-]+=(?=[a-z][a-z0-9+.-]*:\/\/)/i, "")); // uv `name=url`
      } else if (option === "--pip-args") {
        const inner = shellCommands(`pip install ${value}`)[0];
        if (inner) readInstall(installOf(inner.words)!, cwd, state);
      }
      continue;
    }
    if (positional === "none" || (positional === "first" && seenPositional)) continue;
    seenPositional = true;
    if (install.interpreter && INTERPRETER_REQUEST.test(word)) continue; // `uvx python -c …`
    if (positional === "files") fromFile(pathIn(where, word), state);
    else add(word);
  }
}

/** `xargs CMD` reads its arguments from standard input or `-a FILE`: CMD -r FILE, or the words. */
function unwrapXargs(command: ShellCommand, words: string[]): string[] {
  if (program(words[0]) !== "xargs") return words;
  let file = command.stdin;
  let i = 1;
  while (i < words.length && words[i].startsWith("-")) {
    if (XARGS_VALUES.test(words[i])) {
      if (words[i] === "-a") file = words[i + 1] ?? file;
      i += 2;
    } else {
      if (words[i].startsWith("--arg-file=")) file = words[i].slice("--arg-file=".length);
      i++;
    }
  }
  const rest = words.slice(i);
  if (file !== null) return [...rest, "-r", file];
  const text = (command.input ?? "").replace(/(^|\s)#.*$/gm, "");
  return [...rest, ...text.split(/\s+/).filter(Boolean)];
}

/** A command that would approve: `policy approve …`, or a POST to the proposals API. */
function approval(words: string[]): boolean {
  const prog = program(words[0]);
  if (/^policy(\.ts)?$/.test(prog) || words.some((w) => /(^|\/)policy(\.ts)?$/.test(w))) {
    const at = words.findIndex((w) => /(^|\/)policy(\.ts)?$/.test(w));
    if (words.slice(at + 1).some((w) => w === "approve")) return true;
  }
  if (!HTTP_CLIENTS.has(prog) || !words.some((w) => w.includes("/registry/proposals"))) {
    return false;
  }
  return words.some((w) =>
    /^(-d|--data.*|--json|-F|--form|--post-data.*|--post-file.*|POST|PUT|PATCH|-XPOST|-XPUT)$/i
      .test(w) || /^[A-Za-z_]+:?=/.test(w) || /^-X(POST|PUT|PATCH)?$/.test(w)
  );
}

/** A command that would switch the gate off: `policy uninstall`, a new git `core.hooksPath`. */
function switchesGateOff(words: string[]): boolean {
  const prog = program(words[0]);
  if (/^policy(\.ts)?$/.test(prog) && words.includes("uninstall")) return true;
  return prog === "git" && words.some((w) => /^core\.hookspath/i.test(w));
}

function readWords(command: ShellCommand, raw: string[], state: State): void {
  const { out, cwd } = state;
  const first = stripPrefix(raw);
  const { words, env } = stripPrefix(unwrapXargs(command, first.words));
  for (const [name, value] of [...first.env, ...env]) {
    if (INDEX_VARIABLES.has(name)) out.indexes.push(value);
  }
  if (words.length === 0) return;
  const prog = program(words[0]);
  if (approval(words)) out.approvals.push(words.join(" "));
  if (switchesGateOff(words)) out.disables.push(words.join(" "));
  const indirect = indirectLines(command, words, cwd, state.read);
  if (indirect !== null) {
    out.problems.push(...indirect.problems);
    if (state.depth < 3) {
      for (const line of indirect.lines) readLine(line, { ...state, depth: state.depth + 1 });
    }
    return;
  }
  if (/^pip\d*(\.\d+)?$/.test(prog) && words[1] === "config" && /index-url/.test(words[3] ?? "")) {
    out.indexes.push(words[4] ?? "");
  }
  if (prog === "poetry" && words[1] === "source" && words[2] === "add") {
    out.indexes.push(words.slice(3).find((w) => w.includes("://")) ?? "");
  }
  let install = installOf(words);
  if (/^(\$\(|`)/.test(words[0])) out.problems.push(`cannot tell what \`${words[0]}\` runs`);
  else if (isUnresolved(prog) && words.some((w) => /^(install|add|sync|inject)$/.test(w))) {
    out.problems.push(`cannot tell which program \`${words[0]}\` runs`);
    // `$PYTHON -m pip install x`, `$PIP install x`: read as the installer it most likely is
    install = installOf([words.includes("-m") ? "python" : "pip", ...words.slice(1)]);
  }
  if (install === null) return;
  readInstall(install, cwd, state);
  if (install.inner?.length) readWords({ ...command, words: install.inner }, install.inner, state);
}

function readLine(line: string, state: State): void {
  const vars: Variables = new Map();
  let commands: ShellCommand[];
  try {
    commands = shellCommands(line, vars);
  } catch (error) {
    state.out.problems.push(`cannot split the command (${(error as Error).message})`);
    return;
  }
  for (const name of INDEX_VARIABLES) {
    for (const value of vars.get(name) ?? []) state.out.indexes.push(value);
  }
  const overlay = new Map<string, string | null>();
  const read: ReadText = (path) => overlay.has(path) ? overlay.get(path)! : state.read(path);
  let cwd = state.cwd;
  const aliases = new Map<string, string[]>();
  for (const command of commands) {
    if (command.words[0] === "alias") {
      for (
        const [, name, value] of command.words.slice(1).map((w) => /^([^=]+)=(.*)$/s.exec(w))
          .filter((m) => m !== null)
      ) aliases.set(name, value.split(/\s+/).filter(Boolean));
      continue;
    }
    const alias = aliases.get(command.words[0]);
    if (alias) command.words = [...alias, ...command.words.slice(1)];
    const words = stripPrefix(command.words).words;
    const prog = program(words[0]);
    if (prog === "cd" || prog === "pushd" || words[0] === "Set-Location") {
      const dir = words.slice(1).find((w) => !w.startsWith("-"));
      if (dir !== undefined && !isUnresolved(dir) && !dir.startsWith("~")) cwd = pathIn(cwd, dir);
      continue;
    }
    const writes = writesOf(command, cwd, read);
    state.out.touched.push(...writes.touched);
    state.out.problems.push(...writes.problems);
    for (const change of writes.changes) {
      state.out.changes.push(change);
      overlay.set(change.path, change.after(read(change.path)));
    }
    readWords(command, command.words, { ...state, cwd, read });
  }
}

/** Reads one command line run in `cwd` (see {@link ShellReading}). */
export function readCommand(command: string, cwd: string, read: ReadText): ShellReading {
  const out: ShellReading = {
    packages: [],
    changes: [],
    touched: [],
    indexes: [],
    approvals: [],
    disables: [],
    problems: [],
  };
  readLine(command, { cwd, read, depth: 0, out });
  return out;
}

/** Every package the command line would install, in order (see {@link readCommand}). */
export function requestedPackages(command: string, cwd: string, read: ReadText) {
  return readCommand(command, cwd, read).packages;
}
