import { deepStrictEqual, equal, match } from "node:assert/strict";
import { createUpstreamHealth, redactCredentials } from "./upstream_health.ts";

Deno.test("upstream health starts unknown and follows the latest call", () => {
  let now = new Date("2026-11-23T12:00:00Z");
  const health = createUpstreamHealth(() => now);
  deepStrictEqual(health.snapshot().osv, {
    status: "unknown",
    last_success_at: null,
    last_error_at: null,
    last_error: null,
    breaker: "closed",
    retry_at: null,
  });
  health.failure("osv", "POST https://bot:hunter2@osv.internal/v1/query?token=abc&x=1 timed out");
  equal(health.snapshot().osv.status, "failing");
  equal(
    health.snapshot().osv.last_error,
    "POST https://***@osv.internal/v1/query?token=***&x=1 timed out",
  );
  now = new Date("2026-11-23T12:01:00Z");
  health.success("osv");
  deepStrictEqual(health.snapshot().osv, {
    status: "ok",
    last_success_at: "2026-11-23T12:01:00.000Z",
    last_error_at: "2026-11-23T12:00:00.000Z",
    last_error: "POST https://***@osv.internal/v1/query?token=***&x=1 timed out",
    breaker: "closed",
    retry_at: null,
  });
  equal(health.snapshot().pypi.status, "unknown", "each upstream apart");
});

Deno.test("the breaker opens on a failure, skips until the retry time, then lets one probe through", () => {
  let now = new Date("2026-11-23T12:00:00Z");
  const health = createUpstreamHealth(() => now, { retryIntervalMs: 10_000 });
  equal(health.admit("pypi"), null, "closed: calls go ahead");
  health.failure("pypi", "GET https://pypi.org/pypi/x/json failed: connection refused");
  deepStrictEqual(
    [health.snapshot().pypi.breaker, health.snapshot().pypi.retry_at],
    ["open", "2026-11-23T12:00:10.000Z"],
  );
  equal(health.admit("osv"), null, "the other upstream is unaffected");
  equal(
    health.admit("pypi"),
    "PyPI skipped: it failed at 2026-11-23T12:00:00.000Z (GET https://pypi.org/pypi/x/json " +
      "failed: connection refused); the next try is after 2026-11-23T12:00:10.000Z",
  );
  now = new Date("2026-11-23T12:00:10Z");
  equal(health.admit("pypi"), null, "the retry time passed: this call is the probe");
  equal(health.snapshot().pypi.breaker, "half_open");
  match(health.admit("pypi")!, /a retry is under way$/, "one probe at a time");
  health.failure("pypi", "again");
  deepStrictEqual(
    [health.snapshot().pypi.breaker, health.snapshot().pypi.retry_at],
    ["open", "2026-11-23T12:00:20.000Z"],
    "a failed probe opens it for another interval",
  );
  now = new Date("2026-11-23T12:00:20Z");
  equal(health.admit("pypi"), null);
  health.success("pypi");
  deepStrictEqual([health.snapshot().pypi.breaker, health.snapshot().pypi.retry_at], [
    "closed",
    null,
  ]);
  equal(health.admit("pypi"), null);
});

Deno.test("redactCredentials() leaves texts without credentials alone", () => {
  equal(
    redactCredentials("GET https://pypi.org/pypi/requests/json answered HTTP 500"),
    "GET https://pypi.org/pypi/requests/json answered HTTP 500",
  );
  equal(redactCredentials("https://u@host/?api_key=k"), "https://***@host/?api_key=***");
});
