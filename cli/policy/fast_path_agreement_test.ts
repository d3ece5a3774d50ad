/**
 * The fast path (`fast_path.ts`) and commander (`program.ts`) declare
 * `check`, `hook` and `precommit` twice; this test checks they agree flag for
 * flag (names, kinds, choices, defaults, positionals) and that every command
 * line the fast path accepts means the same options to commander.
 */
import assert from "node:assert/strict";
import type { Command } from "commander";
import { AGENTS } from "./agents/names.ts";
import { FAST_PATH_COMMANDS, type FlagKind, parseFastPath } from "./fast_path.ts";
import { bufferedIo } from "./_testing.ts";
import { buildProgram } from "./program.ts";

/** An Io that is never used: the commands' actions are replaced before parsing. */
const io = bufferedIo();

function commandOf(name: string): { program: Command; command: Command } {
  const program = buildProgram(io, () => {});
  const command = program.commands.find((c) => c.name() === name);
  assert.ok(command, `commander declares ${name}`);
  return { program, command };
}

Deno.test("fast path and commander declare the same flags, kinds, choices and positionals", async (t) => {
  for (const [name, shape] of Object.entries(FAST_PATH_COMMANDS)) {
    await t.step(name, () => {
      const { command } = commandOf(name);
      const flags: Record<string, FlagKind> = {};
      for (const option of command.options) {
        flags[option.long!.slice(2)] = option.required || option.optional ? "string" : "boolean";
      }
      assert.deepEqual(flags, shape.flags);
      assert.equal(command.registeredArguments.length, shape.positionals);
      const defaults = Object.fromEntries(
        command.options.filter((o) => o.defaultValue !== undefined && o.required)
          .map((o) => [o.long!.slice(2), o.defaultValue]),
      );
      assert.deepEqual(defaults, "defaults" in shape ? shape.defaults : {});
    });
  }
  const agent = commandOf("hook").command.options.find((o) => o.long === "--agent");
  assert.deepEqual(
    agent?.argChoices,
    [...AGENTS],
    "the fast path accepts exactly commander's agents",
  );
});

Deno.test("every command line the fast path takes means the same options to commander", async (t) => {
  const lines = [
    ["check", "requests"],
    ["check", "requests==2.32.3", "--json"],
    ["check", "requests", "--version", "2.32.3", "--agent-model", "m", "--agent-version=1"],
    ["check", "--agent-model=claude-opus", "requests"],
    ["hook"],
    ["hook", "--agent", "cursor"],
    ["hook", "--agent=codex"],
    ["precommit"],
    ["precommit", "--all"],
  ];
  for (const args of lines) {
    await t.step(args.join(" "), async () => {
      const fast = parseFastPath(args);
      assert.ok(fast, "the fast path takes it");
      const { program, command } = commandOf(args[0]);
      let seen: { positionals: unknown[]; options: Record<string, unknown> } | null = null;
      command.action((...received: unknown[]) => {
        const options = received[command.registeredArguments.length] as Record<string, unknown>;
        seen = { positionals: received.slice(0, command.registeredArguments.length), options };
      });
      await program.parseAsync(args, { from: "user" });
      assert.ok(seen, "commander ran the command");
      const { positionals, options } = seen!;
      assert.deepEqual(positionals, fast.positionals);
      const byAttribute = Object.fromEntries(
        command.options.filter((o) => fast.values[o.long!.slice(2)] !== undefined)
          .map((o) => [o.attributeName(), fast.values[o.long!.slice(2)]]),
      );
      assert.deepEqual(options, byAttribute);
    });
  }
});
