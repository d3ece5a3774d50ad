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

/** A parsed fast-path command, ready to run. */
export type FastCommand = (io: Io) => Promise<number>;

/** Parsed flags and positionals, or null for anything outside the known forms. */
function strict(
  args: string[],
  options: Record<string, "string" | "boolean">,
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

/** The fast-path command for `args`, or null when commander must handle them. */
export function fastCommand(args: string[]): FastCommand | null {
  const [name, ...rest] = args;
  if (name === "check") {
    const parsed = strict(rest, {
      version: "string",
      json: "boolean",
      "agent-model": "string",
      "agent-version": "string",
    });
    if (!parsed || parsed.positionals.length !== 1) return null;
    const { values } = parsed;
    return async (io) => {
      const { check } = await lazyImport<typeof import("./commands/check.ts")>(
        new URL("./commands/check.ts", import.meta.url),
      );
      return check({
        package: parsed.positionals[0],
        version: values.version as string | undefined,
        json: values.json === true,
        agentModel: values["agent-model"] as string | undefined,
        agentVersion: values["agent-version"] as string | undefined,
      }, io);
    };
  }
  if (name === "hook") {
    const parsed = strict(rest, { agent: "string" });
    const agent = parsed?.values.agent ?? "claude";
    if (!parsed || parsed.positionals.length || !(AGENTS as readonly unknown[]).includes(agent)) {
      return null;
    }
    return async (io) => {
      const { hook } = await lazyImport<typeof import("./commands/hook.ts")>(
        new URL("./commands/hook.ts", import.meta.url),
      );
      return hook(io, { agent: agent as Agent });
    };
  }
  if (name === "precommit") {
    const parsed = strict(rest, { all: "boolean" });
    if (!parsed || parsed.positionals.length) return null;
    return async (io) => {
      const { precommit } = await lazyImport<typeof import("./commands/precommit.ts")>(
        new URL("./commands/precommit.ts", import.meta.url),
      );
      return precommit(io, { all: parsed.values.all === true });
    };
  }
  return null;
}
