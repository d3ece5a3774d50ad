/**
 * Files a shell command writes: `>`/`>>` redirects of `echo`, `printf` and `cat` (here-documents
 * included), `tee [-a]`, `sed -i`, `cp`/`mv` onto a file, and the paths it removes or replaces
 * (`rm`, `mv`, `ln`, `truncate`). A write into a dependency manifest becomes a {@link FileChange}
 * on a copy of the file, so the gate judges the dependencies it adds with the manifest readers.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { manifestKind } from "./manifest_kind.ts";
import { outputOf } from "./shell_words.ts";
import type { ShellCommand } from "./shell_words.ts";
import { applySed, sedInPlace } from "./shell_sed.ts";
import { program } from "./shell_installers.ts";
import type { FileChange } from "./payload.ts";
import type { ReadText } from "./shell.ts";

/** What one command writes. */
export interface Writes {
  /** Manifests whose new text is known. */
  changes: FileChange[];
  /** Every path written, moved, linked or removed (for the gate's own files). */
  touched: string[];
  /** Manifest writes whose text cannot be told. */
  problems: string[];
}

/** Commands that change the paths they name. */
const MODIFIERS = new Set(["rm", "unlink", "truncate", "ln", "chmod", "shred", "touch"]);

function pathIn(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The text a command writes to its standard output, when known. */
function produced(command: ShellCommand, cwd: string, read: ReadText): string | null {
  const known = outputOf(command);
  if (known !== null) return known;
  const [prog, ...args] = command.words;
  if (prog === "cat") {
    const texts = args.filter((a) => !a.startsWith("-")).map((f) => read(pathIn(cwd, f)));
    return texts.every((t) => t !== null) ? texts.join("") : null;
  }
  return null;
}

function write(out: Writes, path: string, text: string | null, append: boolean, why: string) {
  out.touched.push(path);
  if (manifestKind(path) === null) return;
  if (text === null) {
    out.problems.push(`cannot tell what ${why} writes to ${path}`);
    return;
  }
  out.changes.push({
    path,
    after: (current) => append ? (current ?? "") + text : text,
  });
}

/** Output derived from what is already installed or declared (`pip freeze > requirements.txt`). */
function derived(words: string[]): boolean {
  return /^(pip\d*(\.\d+)?|uv|poetry|pdm|pipenv|pip-compile|python\d*(\.\d+)?)$/.test(
        program(words[0]),
      ) && words.some((w) => /^(freeze|export|compile|lock|requirements)$/.test(w)) ||
    program(words[0]) === "pip-compile";
}

/** The files `command` (run in `cwd`) writes, moves or removes. */
export function writesOf(command: ShellCommand, cwd: string, read: ReadText): Writes {
  const out: Writes = { changes: [], touched: [], problems: [] };
  const [first, ...args] = command.words;
  const prog = program(first);
  for (const { op, target } of command.redirects) {
    if (!op.includes(">") || op === ">&" || target === "" || /^\/dev\//.test(target)) continue;
    const path = pathIn(cwd, target);
    if (derived(command.words)) out.touched.push(path);
    else write(out, path, produced(command, cwd, read), op.endsWith(">>"), `\`${prog}\``);
  }
  const plain = args.filter((a) => !a.startsWith("-"));
  if (prog === "tee") {
    const text = command.input ?? (command.stdin ? read(pathIn(cwd, command.stdin)) : null);
    const append = args.some((a) => /^-[a-z]*a/.test(a) || a === "--append");
    for (const file of plain) write(out, pathIn(cwd, file), text, append, "`tee`");
  } else if (prog === "sed") {
    const sed = sedInPlace(args);
    for (const file of sed?.files ?? []) {
      const path = pathIn(cwd, file);
      const current = read(path);
      const after = current === null ? null : applySed(current, sed!.scripts, sed!.extended);
      out.touched.push(path);
      if (manifestKind(path) === null) continue;
      if (after === null) out.problems.push(`cannot read the \`sed\` script applied to ${path}`);
      else out.changes.push({ path, after: () => after });
    }
  } else if ((prog === "cp" || prog === "mv" || prog === "install") && plain.length >= 2) {
    const dest = pathIn(cwd, plain[plain.length - 1]);
    const source = plain.length === 2 ? read(pathIn(cwd, plain[0])) : null;
    write(out, dest, source, false, `\`${prog}\``);
    if (prog === "mv") out.touched.push(...plain.slice(0, -1).map((p) => pathIn(cwd, p)));
  } else if (MODIFIERS.has(prog)) {
    out.touched.push(...plain.map((p) => pathIn(cwd, p)));
  }
  return out;
}
