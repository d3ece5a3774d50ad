/**
 * Interactive `policy init` through a real pseudo-terminal (util-linux
 * `script`): answering `y` + Enter goes on at once, while the terminal stays
 * open (no end of input needed), and writes `.policy.toml`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { deadServerUrl, POLICY_CMD, tempGitRepo } from "../../cli/policy/_testing.ts";
import { quote } from "shell-quote";

/** Reads `stream` until `done(text)` holds or `ms` pass; returns all text read. */
async function readUntil(
  stream: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
  ms: number,
): Promise<{ text: string; timedOut: boolean }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, ms, "timeout")));
  try {
    while (!done(text)) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout") return { text, timedOut: true };
      if (next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
    return { text, timedOut: false };
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}

Deno.test("interactive policy init goes on after `y` + Enter in a terminal, without end of input", async () => {
  const dir = await tempGitRepo({ "pyproject.toml": `[project]\nname = "demo"\n` });
  const command = quote([
    ...POLICY_CMD,
    "init",
    "--server-url",
    deadServerUrl(),
    "--no-claude-hooks",
    "--no-claude-md",
    "--no-mcp",
  ]);
  const child = new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd: dir,
    env: { NO_COLOR: "1", TERM: "dumb" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    const asked = await readUntil(child.stdout, (t) => t.includes("[y/N]"), 30_000);
    assert.equal(asked.timedOut, false, `no question: ${asked.text}`);
    await writer.write(new TextEncoder().encode("y\r"));
    // The terminal stays open: the answer must be enough.
    const after = await readUntil(child.stdout, (t) => /pre-commit hook/.test(t), 20_000);
    assert.equal(after.timedOut, false, `init waited for end of input after 'y': ${after.text}`);
    assert.match(after.text, /wrote {4} config: .*\.policy\.toml/);
    const toml = await Deno.readTextFile(join(dir, ".policy.toml"));
    assert.match(toml, /project = "demo"/);
  } finally {
    await writer.close().catch(() => {});
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
