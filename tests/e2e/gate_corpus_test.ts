/**
 * End-to-end: the red team's real install lines (tests/fixtures/gate/, issue #27 item 9) through
 * the hook command against a real policyd serving the example registry. Every `variant` (the
 * line with the banned `pycrypto` added) is denied, no `original` is denied unless it names a
 * package the registry denies, and nothing crashes. Batched in one process per agent
 * (tests/helpers/hook_batch.ts), with a few lines through the installed `policy hook` as well.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { startTestServer } from "../helpers/server.ts";
import { policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

interface Line {
  source: string;
  original: string;
  variant: string;
  variant_style: string;
}

const LINES: Line[] = (await Deno.readTextFile(
  new URL("../fixtures/gate/install-lines.jsonl", import.meta.url),
)).split("\n").filter(Boolean).map((l) => JSON.parse(l));

function claudeBash(dir: string, command: string) {
  return {
    session_id: "corpus",
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  };
}

async function batch(dir: string, payloads: unknown[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../helpers/hook_batch.ts", import.meta.url).pathname],
    cwd: dir,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(
      payloads.map((p) => JSON.stringify({ agent: "claude", payload: p })).join("\n"),
    ),
  );
  await writer.close();
  const out = await child.output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
    JSON.parse(l) as { stdout: string; stderr: string }
  );
}

function decision(stdout: string) {
  const json = stdout.trim() ? JSON.parse(stdout) : null;
  return json?.hookSpecificOutput ?? null;
}

Deno.test("the gate corpus: every variant denied, no benign original denied, no crash", async () => {
  const server = await startTestServer();
  const dir = await tempGitRepo({ "README.md": "corpus\n" });
  try {
    await writePolicyToml(dir, server.url, "auto_request_approval = false\n");
    const registry = parseYaml(await Deno.readTextFile(server.registryPath)) as {
      packages: Array<{ name: string }>;
    };
    const registered = new Set(registry.packages.map((p) => p.name.toLowerCase()));
    const originals = await batch(dir, LINES.map((l) => claudeBash(dir, l.original)));
    const variants = await batch(dir, LINES.map((l) => claudeBash(dir, l.variant)));
    assert.equal(originals.length, LINES.length);
    assert.equal(variants.length, LINES.length);

    const missed = LINES.filter((_, i) =>
      decision(variants[i].stdout)?.permissionDecision !== "deny"
    );
    assert.deepEqual(missed.map((l) => l.variant), [], "variants not denied");
    for (const [i, out] of variants.entries()) {
      assert.match(decision(out.stdout).permissionDecisionReason, /pycrypto/, LINES[i].variant);
    }

    const blocked = LINES.flatMap((line, i) => {
      const d = decision(originals[i].stdout);
      if (d?.permissionDecision !== "deny") return [];
      // allowed only when every denied package is one the registry itself denies
      const json = /policyd: (\{.*\})/.exec(d.permissionDecisionReason)?.[1];
      const denied = json ? JSON.parse(json).denied as Array<{ package: string }> : [];
      const byRegistry = denied.length > 0 && denied.every((p) => registered.has(p.package));
      return byRegistry ? [] : [`${line.original} → ${d.permissionDecisionReason}`];
    });
    assert.deepEqual(blocked, [], "benign originals denied");

    const crashes = [...originals, ...variants].filter((o) =>
      /ignored|could not read this tool call|failed on this tool call/.test(o.stderr)
    );
    assert.deepEqual(crashes.map((c) => c.stderr), [], "crashes");

    // The installed command answers the same as the batch for a sample of lines.
    for (const i of [0, 1, 100, 200, 300]) {
      const ran = await policy(["hook"], {
        cwd: dir,
        stdin: JSON.stringify(claudeBash(dir, LINES[i].variant)),
      });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout, variants[i].stdout, LINES[i].variant);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
