import { deepEqual, equal } from "node:assert/strict";
import { createLogger } from "./logger.ts";
import { redact, redactValue } from "./redact.ts";

Deno.test("redact() removes URL credentials and secret query parameters", () => {
  equal(redact("GET http://u:p@osv.internal/v1/query"), "GET http://***@osv.internal/v1/query");
  equal(redact("redis://:pw@cache:6379/0"), "redis://***@cache:6379/0");
  equal(redact("postgres://app:hunter2@db/policyd"), "postgres://***@db/policyd");
  equal(
    redact("https://x-access-token:ghp_abc@github.com/o/r.git"),
    "https://***@github.com/o/r.git",
  );
  equal(redact("https://h/p?token=abc&x=1"), "https://h/p?token=***&x=1");
  equal(redact("https://pypi.org/pypi/requests/json"), "https://pypi.org/pypi/requests/json");
  equal(redact("secret-value here", ["secret-value"]), "[REDACTED] here");
});

Deno.test("redactValue() walks nested log fields", () => {
  deepEqual(redactValue({ a: ["http://u:p@h/"], b: { c: 1 } }), {
    a: ["http://***@h/"],
    b: { c: 1 },
  });
});

Deno.test("the logger never writes URL credentials, whoever wrote the field", () => {
  const lines: string[] = [];
  createLogger("info", (l) => lines.push(l)).info("upstream failed", {
    detail: "POST http://user:pass@127.0.0.1:9/v1/query answered HTTP 500",
  });
  equal(lines[0].includes("pass"), false);
});
