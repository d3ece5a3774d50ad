import { equal, ok, throws } from "node:assert/strict";
import { startScanner } from "./schedule.ts";
import { silentLogger } from "../log/logger.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` with Deno's own test hook that makes every cron job fire 100 ms
 * after registration and after each run, instead of at its scheduled time.
 */
async function withFastCron(fn: () => Promise<void>): Promise<void> {
  Deno.env.set("DENO_CRON_TEST_SCHEDULE_OFFSET", "100");
  try {
    await fn();
  } finally {
    Deno.env.delete("DENO_CRON_TEST_SCHEDULE_OFFSET");
  }
}

Deno.test("startScanner() runs passes on the Deno.cron schedule until stopped", async () => {
  await withFastCron(async () => {
    let passes = 0;
    const scanner = startScanner({
      schedule: "0 */6 * * *",
      runPass: () => Promise.resolve(++passes),
      log: silentLogger,
      name: "scanner-test-runs",
    });
    const deadline = Date.now() + 3000;
    while (passes < 2 && Date.now() < deadline) await sleep(20);
    ok(passes >= 2, `only ${passes} passes`);
    await scanner.stop();
    const after = passes;
    await sleep(300);
    equal(passes, after, "a pass ran after stop()");
    equal(scanner.status().last_rows, after);
    equal(scanner.status().enabled, true);
  });
});

Deno.test("the first pass comes at the first scheduled time, not at start-up", async () => {
  let passes = 0;
  const scanner = startScanner({
    schedule: "0 0 1 1 *", // once a year
    runPass: () => Promise.resolve(++passes),
    log: silentLogger,
    name: "scanner-test-first-pass",
  });
  await sleep(300);
  equal(passes, 0);
  equal(scanner.status().last_started_at, null);
  await scanner.stop();
});

Deno.test("a slow pass is never overlapped, and stop() waits for it", async () => {
  await withFastCron(async () => {
    let running = 0;
    let maxRunning = 0;
    let finished = 0;
    const scanner = startScanner({
      schedule: "*/5 * * * *",
      runPass: async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(250);
        running--;
        finished++;
        return 0;
      },
      log: silentLogger,
      name: "scanner-test-overlap",
    });
    await sleep(400);
    await scanner.stop();
    equal(running, 0, "stop() returned with a pass in flight");
    equal(maxRunning, 1);
    ok(finished >= 1);
  });
});

Deno.test("a failing pass is logged and the scanner carries on", async () => {
  await withFastCron(async () => {
    let calls = 0;
    const scanner = startScanner({
      schedule: "0 */6 * * *",
      runPass: () => {
        calls++;
        return Promise.reject(new Error("upstream exploded"));
      },
      log: silentLogger,
      name: "scanner-test-failing",
    });
    const deadline = Date.now() + 3000;
    while (calls < 2 && Date.now() < deadline) await sleep(20);
    await scanner.stop();
    ok(calls >= 2);
    equal(scanner.status().last_error, "upstream exploded");
  });
});

Deno.test("CVE_SCAN_SCHEDULE=off registers nothing", async () => {
  let registered = false;
  const scanner = startScanner({
    schedule: "off",
    runPass: () => Promise.resolve(0),
    log: silentLogger,
    cron: () => {
      registered = true;
      return Promise.resolve();
    },
  });
  equal(registered, false);
  equal(scanner.status().enabled, false);
  await scanner.stop();
});

Deno.test("an invalid schedule fails naming the setting", () => {
  throws(
    () =>
      startScanner({
        schedule: "every tuesday",
        runPass: () => Promise.resolve(0),
        log: silentLogger,
      }),
    /CVE_SCAN_SCHEDULE/,
  );
});
