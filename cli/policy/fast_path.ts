/**
 * The fast path of `policy`: the commands an agent or git runs on every
 * edit and commit (`check`, `hook`, `precommit`) are recognised here and
 * their module is loaded alone, without the commander program. The scanner
 * below accepts only the exact forms these commands document (long flags,
 * `--flag value` or `--flag=value`); anything else, including `--help`, a
 * typo or a newer option, returns null and goes through commander, which
 * owns help and usage errors. It is deliberately not `node:util` `parseArgs`:
 * loading the Node compatibility layer costs more start-up time than the
 * whole command (docs/performance.md).
 *
 * @module
 */

import { type Agent, AGENTS } from "./agents/names.ts";
import type { Io } from "./io.ts";
import { lazyImport } from "./lazy_import.ts";

/** A flag's kind: takes a value, or stands alone. */
export type FlagKind = "string" | "boolean";

/**
 * The forms the fast path accepts, per command: its long flags and the
 * number of positionals. Commander (`program.ts`) declares the same commands;
 * `fast_path_agreement_test.ts` checks the two agree flag for flag, so a flag
 * added to one and not the other fails a test instead of drifting.
 */
export const FAST_PATH_COMMANDS = {
  check: {
    flags: {
      version: "string",
      json: "boolean",
      "agent-model": "string",
      "agent-version": "string",
    },
    positionals: 1,
  },
  hook: { flags: { agent: "string" }, positionals: 0, defaults: { agent: "claude" } },
  precommit: { flags: { all: "boolean", "staged-diff-stdin": "boolean" }, positionals: 0 },
} as const satisfies Record<
  string,
  { flags: Record<string, FlagKind>; positionals: number; defaults?: Record<string, string> }
>;

/** A parsed fast-path command, ready to run. */
export type FastCommand = (io: Io) => Promise<number>;

/** Parsed flags and positionals, or null for anything outside the known forms. */
function strict(
  args: string[],
  options: Readonly<Record<string, FlagKind>>,
): { values: Record<string, string | boolean>; positionals: string[] } | null {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return null;
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith("--")) return null; // short flags (-h, -V): commander
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const type = Object.hasOwn(options, name) ? options[name] : undefined;
    if (type === undefined || name in values) return null;
    if (type === "boolean") {
      if (eq >= 0) return null;
      values[name] = true;
    } else if (eq >= 0) {
      values[name] = arg.slice(eq + 1);
    } else {
      const next = args[++i];
      if (next === undefined || next.startsWith("-")) return null;
      values[name] = next;
    }
  }
  return { values, positionals };
}

/** A command line the fast path recognised: the command, its flags and positionals. */
export interface FastParse {
  name: keyof typeof FAST_PATH_COMMANDS;
  values: Record<string, string | boolean>;
  positionals: string[];
}

/**
 * Recognises `args` as one of {@link FAST_PATH_COMMANDS} in a documented
 * form, or returns null (commander then handles them).
 *
 * @example
 * ```ts
 * parseFastPath(["check", "requests", "--agent-model=m"])?.values; // { json: false, "agent-model": "m" }
 * parseFastPath(["check", "requests", "-h"]); // null
 * ```
 */
export function parseFastPath(args: string[]): FastParse | null {
  const [name, ...rest] = args;
  if (!Object.hasOwn(FAST_PATH_COMMANDS, name ?? "")) return null;
  const shape = FAST_PATH_COMMANDS[name as FastParse["name"]];
  const parsed = strict(rest, shape.flags);
  if (!parsed || parsed.positionals.length !== shape.positionals) return null;
  // Absent flags take their defaults (booleans false), as commander gives them.
  const values: Record<string, string | boolean> = {
    ...Object.fromEntries(
      Object.entries(shape.flags).filter(([, kind]) => kind === "boolean").map(([f]) => [f, false]),
    ),
    ...("defaults" in shape ? shape.defaults : {}),
    ...parsed.values,
  };
  if (name === "hook" && !(AGENTS as readonly unknown[]).includes(values.agent)) return null;
  return { name: name as FastParse["name"], values, positionals: parsed.positionals };
}

/** The fast-path command for `args`, or null when commander must handle them. */
export function fastCommand(args: string[]): FastCommand | null {
  const parsed = parseFastPath(args);
  if (!parsed) return null;
  const { values, positionals } = parsed;
  switch (parsed.name) {
    case "check":
      return async (io) => {
        const { check } = await lazyImport<typeof import("./commands/check.ts")>(
          new URL("./commands/check.ts", import.meta.url),
        );
        return check({
          package: positionals[0],
          version: values.version as string | undefined,
          json: values.json === true,
          agentModel: values["agent-model"] as string | undefined,
          agentVersion: values["agent-version"] as string | undefined,
        }, io);
      };
    case "hook":
      return async (io) => {
        const { hook } = await lazyImport<typeof import("./commands/hook.ts")>(
          new URL("./commands/hook.ts", import.meta.url),
        );
        return hook(io, { agent: values.agent as Agent });
      };
    case "precommit":
      return async (io) => {
        const { precommit } = await lazyImport<typeof import("./commands/precommit.ts")>(
          new URL("./commands/precommit.ts", import.meta.url),
        );
        return precommit(io, {
          all: values.all === true,
          stagedDiffStdin: values["staged-diff-stdin"] === true,
        });
      };
  }
}
