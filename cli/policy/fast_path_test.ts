import assert from "node:assert/strict";
import { fastCommand } from "./fast_path.ts";

Deno.test("the fast path takes only the documented forms of check, hook and precommit", () => {
  for (
    const args of [
      ["check", "requests"],
      ["check", "requests==2.32.3", "--json"],
      ["check", "requests", "--version", "2.32.3", "--agent-model", "m", "--agent-version=1"],
      ["hook"],
      ["hook", "--agent", "cursor"],
      ["hook", "--agent=codex"],
      ["precommit"],
      ["precommit", "--all"],
    ]
  ) {
    assert.equal(typeof fastCommand(args), "function", args.join(" "));
  }
});

Deno.test("everything else goes to commander (help, usage errors, other commands, new flags)", () => {
  for (
    const args of [
      [],
      ["check"],
      ["check", "a", "b"],
      ["check", "requests", "--help"],
      ["check", "requests", "-h"],
      ["check", "requests", "--verison", "1"],
      ["check", "requests", "--version"],
      ["check", "requests", "--version", "--json"],
      ["check", "requests", "--json=yes"],
      ["check", "requests", "--json", "--json"],
      ["check", "--", "requests"],
      ["hook", "--help"],
      ["hook", "--agent", "notepad"],
      ["hook", "extra"],
      ["precommit", "--all=yes"],
      ["status"],
      ["mcp"],
      ["--cli-version"],
    ]
  ) {
    assert.equal(fastCommand(args), null, args.join(" "));
  }
});
