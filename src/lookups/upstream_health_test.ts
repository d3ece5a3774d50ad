import { deepStrictEqual, equal } from "node:assert/strict";
import { createUpstreamHealth, redactCredentials } from "./upstream_health.ts";

Deno.test("upstream health starts unknown and follows the latest call", () => {
  let now = new Date("2026-11-23T12:00:00Z");
  const health = createUpstreamHealth(() => now);
  deepStrictEqual(health.snapshot().osv, {
    status: "unknown",
    last_success_at: null,
    last_error_at: null,
    last_error: null,
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
  });
  equal(health.snapshot().pypi.status, "unknown", "each upstream apart");
});

Deno.test("redactCredentials() leaves texts without credentials alone", () => {
  equal(
    redactCredentials("GET https://pypi.org/pypi/requests/json answered HTTP 500"),
    "GET https://pypi.org/pypi/requests/json answered HTTP 500",
  );
  equal(redactCredentials("https://u@host/?api_key=k"), "https://***@host/?api_key=***");
});
