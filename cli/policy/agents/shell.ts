/**
 * Python package installs inside a shell command line: what an agent's shell
 * tool is about to install (`pip install`, `uv add`, `poetry add`, …).
 *
 * The command is split into words with npm `shell-quote`, so quoted text
 * (`echo 'pip install x'`) is one word and never looks like an install.
 * Pure: files named by `-r` are read through the injected reader.
 *
 * @module
 */

import { parse as parseShell } from "shell-quote";
import type { ParseEntry } from "shell-quote";
import { basename, isAbsolute, resolve } from "node:path";
import { normalizeName } from "../../../src/core/names.ts";
import { pinnedVersion, requirementName } from "../pyproject.ts";
import { requirementsFileEntries } from "./manifests.ts";

/** One package a command would install. */
export interface RequestedPackage {
  /** Normalised name. */
  name: string;
  /** The requirement as written (`pycrypto==2.6.1`, `django@^4.2`). */
  spec: string;
  /** Concrete version to evaluate, or null. */
  version: string | null;
}

/** Reads a text file; null when it cannot be read. */
export type ReadText = (path: string) => string | null;

/** Operators that end one simple command. */
const SEPARATORS = new Set(["&&", "||", ";", ";;", "|", "|&", "&", "(", ")"]);
/** Wrappers that run the rest of the words as a command. */
const WRAPPERS = new Set(["sudo", "env", "command", "exec", "nohup", "time", "nice", "builtin"]);
/** Shells whose `-c` argument is itself a command line. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "pwsh", "powershell"]);

/** Options that take a value, per installer (everything else is a flag or `--opt=value`). */
const PIP_VALUES = new Set([
  "-c",
  "--constraint",
  "-e",
  "--editable",
  "-t",
  "--target",
  "--platform",
  "--python-version",
  "--implementation",
  "--abi",
  "--root",
  "--prefix",
  "--src",
  "--upgrade-strategy",
  "-C",
  "--config-settings",
  "--global-option",
  "--no-binary",
  "--only-binary",
  "--progress-bar",
  "--root-user-action",
  "--report",
  "-i",
  "--index-url",
  "--extra-index-url",
  "-f",
  "--find-links",
  "--log",
  "--proxy",
  "--retries",
  "--timeout",
  "--exists-action",
  "--trusted-host",
  "--cert",
  "--client-cert",
  "--cache-dir",
  "--python",
  "-p",
  "--keyring-provider",
  "--index-strategy",
  "--resolution",
  "--prerelease",
  "--exclude-newer",
  "--link-mode",
  "--compile-bytecode",
  "--group",
  "--extra",
  "--override",
  "--build-constraint",
  "--directory",
  "--project",
  "--config-file",
  "--default-index",
  "--index",
  "--target",
]);
const UV_ADD_VALUES = new Set([
  ...PIP_VALUES,
  "--optional",
  "--package",
  "--bounds",
  "--branch",
  "--tag",
  "--rev",
  "--marker",
  "-m",
  "--script",
]);
const POETRY_VALUES = new Set([
  "-G",
  "--group",
  "-E",
  "--extras",
  "--source",
  "--python",
  "--platform",
  "--markers",
  "-C",
  "--directory",
  "-P",
  "--project",
]);
const PDM_VALUES = new Set([
  "-G",
  "--group",
  "-e",
  "--editable",
  "-p",
  "--project",
  "-L",
  "--lockfile",
  "-k",
  "--skip",
  "--venv",
  "--update-strategy",
]);
const PIPX_VALUES = new Set([
  "--python",
  "--pip-args",
  "--index-url",
  "--suffix",
  "--preinstall",
  "--backend",
  "--fetch-python",
]);
const UV_TOOL_VALUES = new Set([...PIP_VALUES, "--from", "--with", "--with-editable"]);

/** Options whose value is a requirements file to read. */
const FILE_OPTIONS = new Set(["-r", "--requirement", "--requirements", "--with-requirements"]);
/** Options whose value is itself a requirement (`uv tool install --with x --from y`, `pipx run --spec`). */
const PACKAGE_OPTIONS = new Set(["--with", "--from", "--spec"]);

/**
 * Replaces newlines outside quotes with `;`, so every line is its own
 * command (shell-quote would otherwise join them), and joins `\`-continued lines.
 */
export function splitLines(command: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote === null && ch === "\\" && command[i + 1] === "\n") {
      i++;
      out += " ";
      continue;
    }
    if (ch === "\\" && quote !== "'" && i + 1 < command.length) {
      out += ch + command[++i];
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (quote === null) quote = ch;
      else if (quote === ch) quote = null;
    }
    out += quote === null && ch === "\n" ? " ; " : ch;
  }
  return out;
}

function isRedirect(entry: ParseEntry): boolean {
  return typeof entry === "object" && "op" in entry && entry.op !== "glob" &&
    /^(<|>|>>|>&|<&|<\(|>\||&>|&>>)$/.test(entry.op);
}

/** One simple command: its words and the file its standard input comes from, if any. */
interface SimpleCommand {
  words: string[];
  /** `< FILE`, or the file of `cat FILE |` before it in a pipeline. */
  stdin: string | null;
}

function parseCommands(command: string): SimpleCommand[] {
  const entries = parseShell(splitLines(command), (key) => `$${key}`);
  let current: SimpleCommand = { words: [], stdin: null };
  const commands: SimpleCommand[] = [current];
  const outer: SimpleCommand[] = []; // commands suspended by an open `$(`
  const start = (stdin: string | null = null) => {
    current = { words: [], stdin };
    commands.push(current);
  };
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const words = current.words;
    if (typeof entry === "string") {
      words.push(entry);
    } else if ("comment" in entry) {
      continue;
    } else if (entry.op === "glob") {
      words.push((entry as { pattern: string }).pattern);
    } else if (isRedirect(entry)) {
      if (/^\d$/.test(words[words.length - 1] ?? "")) words.pop(); // the fd of `2>&1`
      const target = entries[++i]; // the redirect target
      if (entry.op === "<" && typeof target === "string") current.stdin = target;
    } else if (entry.op === "(" && words[words.length - 1]?.endsWith("$")) {
      words[words.length - 1] += "(…)";
      outer.push(current);
      start();
    } else if (entry.op === ")" && outer.length > 0) {
      current = outer.pop()!;
    } else if (SEPARATORS.has(entry.op)) {
      // `cat FILE | xargs …`: the file becomes the next command's standard input
      const piped = entry.op === "|" && program(words[0] ?? "") === "cat" && words.length === 2
        ? words[1]
        : null;
      start(piped);
    }
  }
  return commands.filter((c) => c.words.length > 0);
}

/**
 * The simple commands of a command line, each a list of words. A command
 * substitution `$(…)` is one opaque word (`$(…)`, never a package name) of the
 * command around it, and its own commands are listed too.
 */
export function simpleCommands(command: string): string[][] {
  return parseCommands(command).map((c) => c.words);
}

/** xargs options that take a value (`-a FILE` names the argument file). */
const XARGS_VALUES = /^-[aIiLlnPsdEe]$/;

/**
 * `xargs [options] CMD …` runs CMD with the words of its input (standard input,
 * or `-a FILE`) appended: for an installer those words are requirements, read
 * here as a requirements file (`-r FILE`). Other commands are returned as they are.
 */
function unwrapXargs({ words, stdin }: SimpleCommand): string[] {
  if (program(words[0]) !== "xargs") return words;
  let input = stdin;
  let i = 1;
  while (i < words.length && words[i].startsWith("-")) {
    const option = words[i];
    if (XARGS_VALUES.test(option)) {
      if (option === "-a") input = words[i + 1] ?? input;
      i += 2;
    } else {
      if (option.startsWith("--arg-file=")) input = option.slice("--arg-file=".length);
      i++;
    }
  }
  const rest = words.slice(i);
  return input === null ? rest : [...rest, "-r", input];
}

function stripPrefix(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const word = words[i];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) i++;
    else if (WRAPPERS.has(word)) {
      i++;
      while (i < words.length && words[i].startsWith("-")) {
        // sudo -u USER / -g GROUP, nice -n N take a value
        i += /^-[ugCnhp]$/.test(words[i]) && word !== "env" ? 2 : 1;
      }
    } else break;
  }
  return words.slice(i);
}

function program(word: string): string {
  return basename(word).replace(/\.exe$/i, "").toLowerCase();
}

/** Words after the install subcommand, or null when this is not an install. */
/**
 * How an installer's positional words are read: all requirements (`pip install a b`), only the
 * first one, after which the tool's own arguments follow (`uvx ruff check .`), or none
 * (`uv run --with x script.py`).
 */
type Positionals = "all" | "first" | "none";

/** The words an installer or runner reads, or null when this is neither. */
interface InstallWords {
  args: string[];
  values: Set<string>;
  positional: Positionals;
}

function runner(args: string[], values: Set<string>, named: string[]): InstallWords {
  // `--from X` / `--spec X` names the package; the first positional is then a command name
  const positional = args.some((w) => named.some((n) => w === n || w.startsWith(`${n}=`)))
    ? "none"
    : "first";
  return { args, values, positional };
}

function installArgs(words: string[]): InstallWords | null {
  const [first, ...rest] = words;
  const prog = program(first);
  if (/^pip(\d+(\.\d+)?)?$/.test(prog)) {
    return rest[0] === "install"
      ? { args: rest.slice(1), values: PIP_VALUES, positional: "all" }
      : null;
  }
  if (/^(python|py)(\d+(\.\d+)?)?$/.test(prog)) {
    const m = rest.indexOf("-m");
    if (m < 0 || rest[m + 1] !== "pip") return null;
    return rest[m + 2] === "install"
      ? { args: rest.slice(m + 3), values: PIP_VALUES, positional: "all" }
      : null;
  }
  if (prog === "uv") {
    const sub = rest.filter((w) => !w.startsWith("-"));
    const at = (name: string) => rest.indexOf(name);
    const all = (args: string[], values: Set<string>): InstallWords => ({
      args,
      values,
      positional: "all",
    });
    if (sub[0] === "add") return all(rest.slice(at("add") + 1), UV_ADD_VALUES);
    if (sub[0] === "pip" && sub[1] === "install") {
      return all(rest.slice(at("install") + 1), PIP_VALUES);
    }
    if (sub[0] === "tool" && sub[1] === "install") {
      return all(rest.slice(at("install") + 1), UV_TOOL_VALUES);
    }
    if (sub[0] === "tool" && sub[1] === "run") {
      return runner(rest.slice(at("run") + 1), UV_TOOL_VALUES, ["--from"]);
    }
    if (sub[0] === "run") {
      return { args: rest.slice(at("run") + 1), values: UV_TOOL_VALUES, positional: "none" };
    }
    return null;
  }
  if (prog === "uvx") return runner(rest, UV_TOOL_VALUES, ["--from"]);
  if (prog === "poetry" && rest[0] === "add") {
    return { args: rest.slice(1), values: POETRY_VALUES, positional: "all" };
  }
  if (prog === "pdm" && rest[0] === "add") {
    return { args: rest.slice(1), values: PDM_VALUES, positional: "all" };
  }
  if (prog === "pipx" && rest[0] === "install") {
    return { args: rest.slice(1), values: PIPX_VALUES, positional: "all" };
  }
  if (prog === "pipx" && rest[0] === "run") return runner(rest.slice(1), PIPX_VALUES, ["--spec"]);
  return null;
}

/** A local path, archive or URL rather than a package name. */
function isLocalOrUrl(word: string): boolean {
  return /^(\.{1,2}($|\/)|\/|~|[A-Za-z]:\\)/.test(word) || /:\/\//.test(word) ||
    /\.(whl|zip|tar\.gz|tgz|tar\.bz2)$/i.test(word) || word.startsWith("$");
}

/** `name@^1.2` (Poetry, uv tool, pipx) → name and constraint; PEP 508 `name @ url` stays. */
function requested(word: string): RequestedPackage | null {
  const spec = word.trim();
  const direct = /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*@\s*\S+:\/\//.exec(spec);
  if (direct) return { name: normalizeName(direct[1]), spec, version: null }; // PEP 508 `name @ url`
  if (spec === "" || isLocalOrUrl(spec)) return null;
  const at = /^([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)@([^/:]*)$/.exec(spec);
  if (at) {
    const name = requirementName(at[1]);
    if (name === null) return null;
    const constraint = at[2] === "latest" ? "" : at[2];
    return {
      name: normalizeName(name),
      spec,
      version: constraint ? pinnedVersion(constraint) : null,
    };
  }
  const name = requirementName(spec);
  if (name === null) return null;
  return { name: normalizeName(name), spec, version: pinnedVersion(spec) };
}

function fromFile(path: string, read: ReadText, seen: Set<string>): RequestedPackage[] {
  if (seen.has(path) || seen.size > 20) return [];
  seen.add(path);
  const text = read(path);
  if (text === null) return [];
  const found: RequestedPackage[] = [];
  const entries = requirementsFileEntries(text);
  for (const [name, spec] of entries.packages) {
    found.push({ name, spec, version: pinnedVersion(spec) });
  }
  for (const nested of entries.files) {
    found.push(...fromFile(resolve(path, "..", nested), read, seen));
  }
  return found;
}

/**
 * The option a word names and its inline value: `--opt=value`, `-rFILE`, `-r=FILE`, or a
 * cluster of short flags ending in one that takes a value (`-Ur FILE`, `-qrFILE`), which
 * pip (optparse), uv (clap), Poetry and PDM all accept.
 */
function optionOf(
  word: string,
  takesValue: (option: string) => boolean,
): { option: string; inline: string | null } {
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

function packagesOfInstall(
  { args, values, positional }: InstallWords,
  cwd: string,
  read: ReadText,
): RequestedPackage[] {
  const found: RequestedPackage[] = [];
  const takesValue = (option: string) =>
    FILE_OPTIONS.has(option) || PACKAGE_OPTIONS.has(option) || values.has(option);
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === "--") continue;
    if (word.startsWith("-")) {
      const { option, inline } = optionOf(word, takesValue);
      if (!takesValue(option)) continue;
      const value = inline ?? args[++i];
      if (value === undefined) break;
      if (FILE_OPTIONS.has(option)) {
        found.push(...fromFile(isAbsolute(value) ? value : resolve(cwd, value), read, new Set()));
      } else if (PACKAGE_OPTIONS.has(option)) {
        for (const part of value.split(",")) {
          const pkg = requested(part);
          if (pkg) found.push(pkg);
        }
      }
      continue;
    }
    if (positional === "none") continue;
    const pkg = requested(word);
    if (pkg) found.push(pkg);
    if (positional === "first") break; // the rest are the tool's own arguments
  }
  return found;
}

/** A `cd DIR` command's new directory, or null for other commands. */
function cdTarget(words: string[], cwd: string): string | null {
  if (program(words[0]) !== "cd" && words[0] !== "Set-Location" && words[0] !== "pushd") {
    return null;
  }
  const dir = words.slice(1).find((w) => !w.startsWith("-"));
  if (dir === undefined || dir.startsWith("$") || dir.startsWith("~")) return cwd;
  return isAbsolute(dir) ? dir : resolve(cwd, dir);
}

/**
 * Every package the command line would install, in order, following `cd`
 * between commands and `sh -c '…'`. Empty for anything that is not an install.
 */
export function requestedPackages(
  command: string,
  cwd: string,
  read: ReadText,
  depth = 0,
): RequestedPackage[] {
  const found: RequestedPackage[] = [];
  let dir = cwd;
  for (const parsed of parseCommands(command)) {
    const words = stripPrefix(unwrapXargs({ ...parsed, words: stripPrefix(parsed.words) }));
    if (words.length === 0) continue;
    const moved = cdTarget(words, dir);
    if (moved !== null) {
      dir = moved;
      continue;
    }
    const c = words.findIndex((w, i) => i > 0 && /^(-[A-Za-z]*c|-Command)$/.test(w));
    if (SHELLS.has(program(words[0])) && c > 0 && words[c + 1] !== undefined && depth < 3) {
      found.push(...requestedPackages(words[c + 1], dir, read, depth + 1));
      continue;
    }
    const install = installArgs(words);
    if (install === null) continue;
    const directory = install.args.findIndex((w) => w === "--directory" || w === "--project");
    const where = directory >= 0 && install.args[directory + 1]
      ? resolve(dir, install.args[directory + 1])
      : dir;
    found.push(...packagesOfInstall(install, where, read));
  }
  return found;
}
