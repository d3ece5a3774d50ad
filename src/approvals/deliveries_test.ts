import { equal } from "node:assert/strict";
import { DeliveryLog } from "./deliveries.ts";

Deno.test("DeliveryLog remembers a delivery id for a day", () => {
  let now = 0;
  const log = new DeliveryLog(() => now);
  equal(log.has("d1"), false);
  log.remember("d1");
  now = 23 * 3600_000;
  equal(log.has("d1"), true);
  now = 24 * 3600_000;
  equal(log.has("d1"), false);
});
