import assert from "node:assert/strict";
import { createLogger } from "./logger.ts";

Deno.test("enabled() says which levels are written; filtered lines never reach the sink", () => {
  const lines: string[] = [];
  const log = createLogger("warn", (line) => lines.push(line)).child({ request_id: "r1" });
  assert.deepEqual(
    (["debug", "info", "warn", "error"] as const).map((level) => log.enabled(level)),
    [false, false, true, true],
  );
  log.info("dropped", { n: 1 });
  log.warn("kept", { n: 2 });
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]);
  assert.equal(line.msg, "kept");
  assert.equal(line.request_id, "r1");
  assert.equal(line.n, 2);
});

const LOGGER_URL = new URL("./logger.ts", import.meta.url).href;

/** Runs `body` in a fresh Deno process with `createLogger`/`flushLogLines` imported; returns its stderr lines. */
async function stderrOf(body: string): Promise<{ code: number; lines: string[] }> {
  const script = `import { createLogger, flushLogLines } from "${LOGGER_URL}";\n${body}`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  return { code: out.code, lines: text.split("\n").filter((l) => l.startsWith("{")) };
}

Deno.test("stderr sink: a turn's lines are written in order, and before a natural exit", async () => {
  const { code, lines } = await stderrOf(`
    const log = createLogger("info");
    for (let i = 0; i < 5; i++) log.info("line", { i });
  `);
  assert.equal(code, 0);
  assert.deepEqual(lines.map((l) => JSON.parse(l).i), [0, 1, 2, 3, 4]);
});

Deno.test("stderr sink: warnings are written at once, after the lines held before them", async () => {
  // SIGKILL runs no hook: only what was already written survives.
  const { lines } = await stderrOf(`
    const log = createLogger("info");
    log.info("held");
    log.warn("now");
    log.info("lost to SIGKILL");
    Deno.kill(Deno.pid, "SIGKILL");
  `);
  assert.deepEqual(lines.map((l) => JSON.parse(l).msg), ["held", "now"]);
});

Deno.test("stderr sink: Deno.exit keeps every line, with or without flushLogLines()", async () => {
  for (const flush of ["flushLogLines();", ""]) {
    const { code, lines } = await stderrOf(`
      createLogger("info").info("request", { status: 200 });
      ${flush}
      Deno.exit(3);
    `);
    assert.equal(code, 3);
    assert.equal(JSON.parse(lines[0]).status, 200);
  }
});

Deno.test("stderr sink: an uncaught error still writes the lines held before it", async () => {
  const { code, lines } = await stderrOf(`
    createLogger("info").info("before the crash");
    throw new Error("boom");
  `);
  assert.notEqual(code, 0);
  assert.deepEqual(lines.map((l) => JSON.parse(l).msg), ["before the crash"]);
});
