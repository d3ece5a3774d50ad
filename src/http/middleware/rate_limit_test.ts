import { equal } from "node:assert/strict";
import { FixedWindowCounter } from "./rate_limit.ts";

Deno.test("FixedWindowCounter allows `limit` hits per key and window, then says how long to wait", () => {
  const counter = new FixedWindowCounter(2, 60_000);
  equal(counter.hit("a", 0), 0);
  equal(counter.hit("a", 1_000), 0);
  equal(counter.hit("a", 20_000), 40_000);
  equal(counter.hit("b", 20_000), 0, "keys are counted apart");
  equal(counter.hit("a", 60_000), 0, "a new window starts afresh");
});
