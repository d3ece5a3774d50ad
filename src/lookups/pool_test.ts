import assert from "node:assert/strict";
import { ConcurrencyLimiter } from "./pool.ts";

Deno.test("the upstream pool never runs more than its limit; a waiter whose signal aborts leaves", async () => {
  const pool = new ConcurrencyLimiter(3);
  let running = 0;
  let peak = 0;
  const task = async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 10));
    running--;
    return "done";
  };
  const results = await Promise.all(Array.from({ length: 20 }, () => pool.run(task)));
  assert.equal(peak, 3);
  assert.deepEqual(results, Array(20).fill("done"));
  assert.equal(pool.active, 0);

  const blockers = Array.from(
    { length: 3 },
    () => pool.run(() => new Promise((r) => setTimeout(r, 100))),
  );
  const controller = new AbortController();
  const waiting = pool.run(task, controller.signal);
  assert.equal(pool.waiting, 1);
  controller.abort(new Error("deadline"));
  await assert.rejects(waiting, /deadline/);
  assert.equal(pool.waiting, 0);
  await Promise.all(blockers);
  assert.equal(pool.active, 0);
});
