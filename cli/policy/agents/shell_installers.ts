/**
 * Which words of a simple command are an install, and how its arguments are read: pip (and
 * `python -m pip`), uv, uvx, Poetry, PDM, pipx, pipenv, pip-sync, rye, easy_install; runners
 * that run another command (`poetry run`, `uv run`, `pdm run`, `pipenv run`, `hatch run`,
 * `rye run`, `conda run`) and prefixes (`sudo`, `env`, `timeout 60`, `nice -n 5`, `time`).
 *
 * @module
 */

import {
  GLOBAL_VALUES,
  PDM_VALUES,
  PIP_VALUES,
  PIPX_VALUES,
  POETRY_VALUES,
  RUN_VALUES,
  UV_ADD_VALUES,
  UV_TOOL_VALUES,
} from "./shell_options.ts";

/**
 * How an installer's positional words are read: all requirements (`pip install a b`), only the
 * first one, after which the tool's own arguments follow (`uvx ruff check .`), none
 * (`uv run --with x script.py`), or requirement files (`pip-sync a.txt`).
 */
export type Positionals = "all" | "first" | "none" | "files";

/** The words an installer reads, and the command a runner runs (read as a command of its own). */
export interface Install {
  args: string[];
  values: Set<string>;
  positional: Positionals;
  /** For runners: the words of the command they run. */
  inner?: string[];
  /**
   * uv's tool runner: a first positional naming a Python interpreter (`uvx python`,
   * `uvx python@3.12`, `uv tool run pypy3.10`) runs that interpreter and installs nothing.
   */
  interpreter?: boolean;
}

/** An interpreter request uv's tool runner reads instead of a package (see {@link Install}). */
export const INTERPRETER_REQUEST = /^(python|cpython|pypy|graalpy)(\d+(\.\d+)*t?|@\S+)?$/i;

/** Wrappers that run the rest of the words; the value options each takes. */
const WRAPPERS: Record<string, RegExp> = {
  sudo: /^-[ugChpDRTU]$/,
  doas: /^-[uC]$/,
  env: /^-[uSC]$/,
  command: /^$/,
  exec: /^-a$/,
  nohup: /^$/,
  time: /^-[fo]$/,
  nice: /^-n$/,
  ionice: /^-[cnp]$/,
  timeout: /^-[sk]$/,
  stdbuf: /^-[ioe]$/,
  builtin: /^$/,
  caffeinate: /^-[tw]$/,
  chronic: /^$/,
};

/** Program name of a word (`/usr/bin/pip3.exe` → `pip3`). */
export function program(word: string | undefined): string {
  if (word === undefined) return "";
  return (word.split(/[\\/]/).pop() ?? "").replace(/\.exe$/i, "").toLowerCase();
}

/** The command after prefix assignments and wrappers, and the variables the prefixes set. */
export function stripPrefix(words: string[]): { words: string[]; env: Map<string, string> } {
  const env = new Map<string, string>();
  let i = 0;
  while (i < words.length) {
    const word = words[i];
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
    const wrapper = WRAPPERS[program(word)];
    if (assignment) {
      env.set(assignment[1], assignment[2]);
      i++;
    } else if (wrapper) {
      const prog = program(word);
      i++;
      while (i < words.length && words[i].startsWith("-") && words[i] !== "--") {
        i += wrapper.test(words[i]) ? 2 : 1;
      }
      if (words[i] === "--") i++;
      if (prog === "timeout" && i < words.length) i++; // the duration
    } else break;
  }
  return { words: words.slice(i), env };
}

/** Index of the subcommand after global options (`uv --directory x add` → 2), or -1. */
function subcommandAt(rest: string[], prog: string): number {
  const values = GLOBAL_VALUES[prog] ?? new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (!word.startsWith("-")) return i;
    if (values.has(word)) i++;
  }
  return -1;
}

/** A runner's command: the words after its options (`uv run --with x pip install y` → `pip …`). */
function runner(args: string[], values: Set<string>): Install {
  let i = 0;
  while (i < args.length && args[i].startsWith("-") && args[i] !== "--") {
    i += values.has(args[i]) ? 2 : 1;
  }
  if (args[i] === "--") i++;
  let inner = args.slice(i);
  if (inner.length === 1 && /\s/.test(inner[0])) inner = inner[0].split(/\s+/); // `hatch run "pip …"`
  if (inner[0]?.includes(":") && !inner[0].includes("/")) inner[0] = inner[0].split(":").pop()!;
  return { args: args.slice(0, i), values, positional: "none", inner };
}

/** A tool runner whose first positional names the package (`uvx ruff`, `pipx run x`). */
function toolRunner(
  args: string[],
  values: Set<string>,
  named: string[],
  interpreter = false,
): Install {
  const positional = args.some((w) => named.some((n) => w === n || w.startsWith(`${n}=`)))
    ? "none"
    : "first";
  return { args, values, positional, interpreter };
}

function all(args: string[], values: Set<string>): Install {
  return { args, values, positional: "all" };
}

/** The install a command performs, or null when it installs nothing. */
export function installOf(words: string[]): Install | null {
  const [first, ...rest] = words;
  const prog = program(first);
  if (/^(python|py|pypy)(\d+(\.\d+)?)?$/.test(prog)) {
    const m = rest.findIndex((w) => /^-[A-Za-z]*m$/.test(w)); // `-m`, `-Im`
    if (m < 0 || rest[m + 1] === undefined) return null;
    return installOf(rest.slice(m + 1));
  }
  const family = /^pip(\d+(\.\d+)?)?$/.test(prog) ? "pip" : prog;
  const at = subcommandAt(rest, family);
  const sub = at < 0 ? [] : rest.slice(at);
  const after = (n: number) => sub.slice(n);
  switch (family) {
    case "pip":
      return sub[0] === "install" ? all(after(1), PIP_VALUES) : null;
    case "uv":
      if (sub[0] === "add") return all(after(1), UV_ADD_VALUES);
      if (sub[0] === "pip" && sub[1] === "install") return all(after(2), PIP_VALUES);
      if (sub[0] === "pip" && sub[1] === "sync") {
        return { args: after(2), values: PIP_VALUES, positional: "files" };
      }
      if (sub[0] === "tool" && sub[1] === "install") return all(after(2), UV_TOOL_VALUES);
      if (sub[0] === "tool" && sub[1] === "run") {
        return toolRunner(after(2), UV_TOOL_VALUES, ["--from"], true);
      }
      if (sub[0] === "run") return runner(after(1), RUN_VALUES);
      return null;
    case "uvx":
      return toolRunner(rest, UV_TOOL_VALUES, ["--from"], true);
    case "poetry":
      if (sub[0] === "add") return all(after(1), POETRY_VALUES);
      if (sub[0] === "self" && sub[1] === "add") return all(after(2), POETRY_VALUES);
      return sub[0] === "run" ? runner(after(1), POETRY_VALUES) : null;
    case "pdm":
      if (sub[0] === "add") return all(after(1), PDM_VALUES);
      return sub[0] === "run" ? runner(after(1), PDM_VALUES) : null;
    case "pipx":
      if (sub[0] === "install" || sub[0] === "inject") return all(after(1), PIPX_VALUES);
      if (sub[0] === "runpip" && sub.length > 2) return installOf(["pip", ...after(2)]);
      return sub[0] === "run" ? toolRunner(after(1), PIPX_VALUES, ["--spec"]) : null;
    case "pipenv":
      if (sub[0] === "install") return all(after(1), PIP_VALUES);
      return sub[0] === "run" ? runner(after(1), RUN_VALUES) : null;
    case "pip-sync":
      return { args: rest, values: PIP_VALUES, positional: "files" };
    case "rye":
      if (sub[0] === "add" || sub[0] === "install") return all(after(1), UV_ADD_VALUES);
      return sub[0] === "run" ? runner(after(1), RUN_VALUES) : null;
    case "hatch":
    case "conda":
    case "mamba":
    case "micromamba":
      return sub[0] === "run" ? runner(after(1), RUN_VALUES) : null;
    case "easy_install":
      return all(rest, PIP_VALUES);
  }
  return null;
}
