/**
 * `upstream_down` after the configured time of failing, once; `upstream_up`
 * at the next success, once — over the real upstream health tracker.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { createUpstreamHealth } from "../lookups/upstream_health.ts";
import { createUpstreamWatch } from "./upstream_watch.ts";

/** A tracker and a watch on one clock that `advance(ms)` moves. */
function watched(downAfterSeconds: number) {
  let at = Date.parse("2026-11-26T06:00:00.000Z");
  const now = () => new Date(at);
  const health = createUpstreamHealth(now);
  const watch = createUpstreamWatch({
    snapshot: () => health.snapshot(),
    instance: "host:1",
    downAfterSeconds,
    now,
  });
  return { health, watch, advance: (ms: number) => void (at += ms) };
}

Deno.test("an upstream failing longer than the threshold is down once, then up once", () => {
  const { health, watch, advance } = watched(300);
  health.success("osv");
  deepStrictEqual(watch.check(), []);
  health.failure("osv", "POST https://api.osv.dev/v1/query timed out");
  deepStrictEqual(watch.check(), [], "failing, not for long enough");
  advance(299_000);
  health.failure("osv", "again");
  deepStrictEqual(watch.check(), []);
  advance(2_000);
  const [down] = watch.check();
  equal(down.kind, "upstream_down");
  equal(down.severity, "high");
  equal(down.data.failing_since, "2026-11-26T06:00:00.000Z");
  equal(down.data.last_error, "again");
  deepStrictEqual(watch.check(), [], "down once");
  health.success("osv");
  const [up] = watch.check();
  equal(up.kind, "upstream_up");
  equal(up.key, "upstream_up:osv:host:1:2026-11-26T06:00:00.000Z");
  deepStrictEqual(watch.check(), []);
});

Deno.test("a short failure followed by a success alerts nothing", () => {
  const { health, watch, advance } = watched(60);
  health.failure("pypi", "503");
  deepStrictEqual(watch.check(), []);
  advance(10_000);
  health.success("pypi");
  deepStrictEqual(watch.check(), []);
});
