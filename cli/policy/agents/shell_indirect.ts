/**
 * Command lines a command runs indirectly, for the shell reader to read in turn: `sh -c '…'`,
 * `eval '…'`, a script run or sourced (`bash install.sh`, `. ./setup.sh`, `sh < x.sh`), text piped
 * into a shell (`echo 'pip install x' | sh`), and the shell commands a `python -c` program passes to
 * `os.system`/`subprocess` as string literals. A Python program that mentions an installer in a
 * form not read here is reported as unreadable.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { program } from "./shell_installers.ts";
import type { ShellCommand } from "./shell_words.ts";

/** Shells whose `-c` argument, script file or standard input is a command line. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "pwsh", "powershell"]);

/** What a command runs indirectly: command lines to read, and what could not be read. */
export interface Indirect {
  lines: string[];
  problems: string[];
}

function pathIn(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** String literals of a Python program that look like shell commands of an installer. */
function pythonCommands(code: string): Indirect {
  const lines: string[] = [];
  for (const m of code.matchAll(/(["'])((?:(?!\1).)*)\1/g)) {
    if (/\b(pip\d*|uv|poetry|pdm|pipx|pipenv)\s+(install|add)\b/.test(m[2])) lines.push(m[2]);
  }
  // `subprocess.run(["pip", "install", "x"])`: the list's literals as one command line
  for (const list of code.matchAll(/\[\s*((?:(["'])[^"']*\2\s*,?\s*)+)\]/g)) {
    const words = [...list[1].matchAll(/(["'])([^"']*)\1/g)].map((w) => w[2]);
    if (!words.includes("install") && !words.includes("add")) continue;
    // `pip.main(["install", "x"])` names no program: it is pip
    lines.push((/^(install|add)$/.test(words[0]) ? ["pip", ...words] : words).join(" "));
  }
  const installs = /\bpip\b|\binstall\b|ensurepip|\bpip\.main\b/.test(code);
  return {
    lines,
    problems: installs && lines.length === 0
      ? ["cannot read what a `python -c` program installs"]
      : [],
  };
}

/**
 * The command lines `words` runs indirectly (empty when none), reading scripts through `read`.
 * Null when the command is not one of these.
 */
export function indirectLines(
  command: ShellCommand,
  words: string[],
  cwd: string,
  read: (path: string) => string | null,
): Indirect | null {
  const prog = program(words[0]);
  if (prog === "eval") return { lines: [words.slice(1).join(" ")], problems: [] };
  if (/^(python|py|pypy)(\d+(\.\d+)?)?$/.test(prog)) {
    // interpreter options only: `python -m pip install -c constraints.txt` is no program text
    for (let i = 1; i < words.length && words[i].startsWith("-"); i++) {
      if (/^-[A-Za-z]*m$/.test(words[i])) return null;
      if (/^-[A-Za-z]*c$/.test(words[i])) {
        return words[i + 1] === undefined ? null : pythonCommands(words[i + 1]);
      }
    }
    return null;
  }
  const sourced = prog === "source" || prog === ".";
  if (!SHELLS.has(prog) && !sourced) return null;
  const c = words.findIndex((w, i) => i > 0 && /^(-[A-Za-z]*c|-Command)$/.test(w));
  if (c > 0) return words[c + 1] === undefined ? null : { lines: [words[c + 1]], problems: [] };
  const script = words.slice(1).find((w) => !w.startsWith("-"));
  const text = script !== undefined
    ? read(pathIn(cwd, script))
    : command.input ?? (command.stdin ? read(pathIn(cwd, command.stdin)) : null);
  return { lines: text === null ? [] : [text], problems: [] };
}
