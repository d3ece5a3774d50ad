import assert from "node:assert/strict";
import { join } from "node:path";
import {
  claudeHooksInstalled,
  installClaudeHooks,
  PRE_TOOL_MATCHER,
  settingsPath,
  uninstallClaudeHooks,
} from "./install/claude_settings.ts";
import { installClaudeMd, SECTION_BEGIN, uninstallClaudeMd } from "./install/claude_md.ts";
import {
  CHAINED_HOOK,
  installPrecommit,
  precommitInstalled,
  uninstallPrecommit,
} from "./install/precommit.ts";
import { isPolicyHookCommand, shellJoin } from "./install/command.ts";
import { ClientError } from "./exit_codes.ts";

const CMD = "/usr/bin/deno run -A '/opt/my tools/cli/policy.ts' hook";

Deno.test("isPolicyHookCommand() recognises our commands only", () => {
  assert.ok(isPolicyHookCommand(CMD));
  assert.ok(isPolicyHookCommand("policy hook"));
  assert.ok(isPolicyHookCommand("/usr/local/bin/policy hook"));
  // The bundle (tools/bundle_client.ts), and its eager copy.
  assert.ok(isPolicyHookCommand("/usr/bin/deno run -A --no-config /r/dist/policy/policy.js hook"));
  assert.ok(isPolicyHookCommand("deno run -A --no-config /r/dist/policy/eager/policy.js hook"));
  assert.ok(!isPolicyHookCommand("other-policy hook"));
  assert.ok(!isPolicyHookCommand("node other-policy.js hook"));
  assert.ok(!isPolicyHookCommand("policy check x"));
  assert.equal(shellJoin(["/a b/c", "x'y", "ok"]), `'/a b/c' 'x'"'"'y' ok`);
});

Deno.test("installClaudeHooks() merges, is idempotent and refreshes a moved command", () => {
  const root = Deno.makeTempDirSync();
  Deno.mkdirSync(join(root, ".claude"));
  const other = {
    matcher: "Edit|Write|MultiEdit",
    hooks: [{ type: "command", command: "prettier" }],
  };
  Deno.writeTextFileSync(
    settingsPath(root),
    JSON.stringify({ model: "x", hooks: { PreToolUse: [other] } }),
  );
  assert.equal(installClaudeHooks(root, CMD).written, true);
  assert.ok(claudeHooksInstalled(root));
  const once = Deno.readTextFileSync(settingsPath(root));
  assert.equal(installClaudeHooks(root, CMD).written, false);
  assert.equal(Deno.readTextFileSync(settingsPath(root)), once);
  const settings = JSON.parse(once);
  assert.equal(settings.model, "x");
  assert.deepEqual(settings.hooks.PreToolUse[0], other);
  assert.equal(settings.hooks.PreToolUse[1].matcher, PRE_TOOL_MATCHER);

  assert.equal(installClaudeHooks(root, "policy hook").written, true);
  const moved = JSON.parse(Deno.readTextFileSync(settingsPath(root)));
  const commands = moved.hooks.PreToolUse.flatMap((g: { hooks: Array<{ command: string }> }) =>
    g.hooks.map((h) => h.command)
  );
  assert.deepEqual(commands, ["prettier", "policy hook"]);

  assert.equal(uninstallClaudeHooks(root), true);
  assert.deepEqual(JSON.parse(Deno.readTextFileSync(settingsPath(root))), {
    model: "x",
    hooks: { PreToolUse: [other] },
  });
  assert.equal(uninstallClaudeHooks(root), false);
  Deno.removeSync(root, { recursive: true });
});

Deno.test("installClaudeHooks() refuses to clobber invalid JSON; uninstall deletes a file it emptied", () => {
  const root = Deno.makeTempDirSync();
  Deno.mkdirSync(join(root, ".claude"));
  Deno.writeTextFileSync(settingsPath(root), "{ nope");
  assert.throws(() => installClaudeHooks(root, CMD), ClientError);
  assert.equal(Deno.readTextFileSync(settingsPath(root)), "{ nope");
  Deno.removeSync(settingsPath(root));
  installClaudeHooks(root, CMD);
  uninstallClaudeHooks(root);
  assert.throws(() => Deno.statSync(join(root, ".claude")), Deno.errors.NotFound);
  Deno.removeSync(root, { recursive: true });
});

Deno.test("installClaudeMd() creates or appends once and returns [path, written]", () => {
  const root = Deno.makeTempDirSync();
  const path = join(root, "CLAUDE.md");
  assert.deepEqual(installClaudeMd(root, "p", "http://h"), [path, true]);
  assert.deepEqual(installClaudeMd(root, "p", "http://h"), [path, false]);
  assert.equal(uninstallClaudeMd(root), true);
  assert.throws(() => Deno.statSync(path), Deno.errors.NotFound);
  Deno.writeTextFileSync(path, "# Mine");
  assert.deepEqual(installClaudeMd(root, "p", "http://h"), [path, true]);
  const text = Deno.readTextFileSync(path);
  assert.ok(text.startsWith("# Mine\n\n" + SECTION_BEGIN));
  assert.equal(text.split(SECTION_BEGIN).length, 2);
  uninstallClaudeMd(root);
  assert.equal(Deno.readTextFileSync(path), "# Mine\n");
  Deno.removeSync(root, { recursive: true });
});

Deno.test("installPrecommit() chains a foreign hook; precommitInstalled() follows the marker", () => {
  const hooks = Deno.makeTempDirSync();
  const foreign = "#!/bin/sh\nexit 0\n";
  Deno.writeTextFileSync(join(hooks, "pre-commit"), foreign);
  assert.equal(precommitInstalled(hooks), false);
  assert.equal(installPrecommit(hooks, ["/bin/policy"], "").written, true);
  assert.equal(precommitInstalled(hooks), true);
  assert.equal(Deno.readTextFileSync(join(hooks, CHAINED_HOOK)), foreign);
  assert.match(
    Deno.readTextFileSync(join(hooks, "pre-commit")),
    /\| \/bin\/policy precommit --staged-diff-stdin\n$/,
  );
  assert.equal(installPrecommit(hooks, ["/bin/policy"], "").written, false);
  assert.equal((Deno.statSync(join(hooks, "pre-commit")).mode ?? 0) & 0o111, 0o111);
  assert.equal(uninstallPrecommit(hooks), true);
  assert.equal(Deno.readTextFileSync(join(hooks, "pre-commit")), foreign);
  assert.equal(precommitInstalled(hooks), false);
  assert.equal(uninstallPrecommit(hooks), false);
  Deno.removeSync(hooks, { recursive: true });
});
