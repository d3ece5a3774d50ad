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
