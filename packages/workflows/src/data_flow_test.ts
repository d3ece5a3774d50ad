import assert from "node:assert/strict";
import { deriveDataFlow } from "./data_flow.ts";
import type { RawApiCall, RawBoundary } from "./recorder.ts";

function call(over: Partial<RawApiCall>): RawApiCall {
  return { kind: "api", method: "GET", path: "/", headers: {}, status: 200, ...over };
}
const json = (value: unknown) => ({ type: "json" as const, value });

Deno.test("deriveDataFlow() links a response value to a later request body, query, path and header", () => {
  const steps: (RawApiCall | RawBoundary)[] = [
    call({
      method: "POST",
      response: json({ data: { audit_id: "aud_9f2", count: 42 }, token: "tok_abcdef" }),
    }),
    { kind: "boundary", domain: "Client", name: "Think" },
    call({ method: "POST", request: json({ audit_id: "aud_9f2", n: 42 }) }),
    call({ query: { audit: "aud_9f2" } }),
    call({ path: "/audits/aud_9f2", route: "/audits/:id", params: { id: "aud_9f2" } }),
    call({ path: "/raw/aud_9f2" }),
    call({ headers: { authorization: "Bearer tok_abcdef" } }),
  ];
  assert.deepEqual(deriveDataFlow(steps), [
    {
      from: { step: 1, key: "data.audit_id" },
      to: { step: 3, location: "request body", key: "audit_id" },
    },
    { from: { step: 1, key: "data.count" }, to: { step: 3, location: "request body", key: "n" } },
    { from: { step: 1, key: "data.audit_id" }, to: { step: 4, location: "query", key: "audit" } },
    { from: { step: 1, key: "data.audit_id" }, to: { step: 5, location: "path", key: ":id" } },
    {
      from: { step: 1, key: "data.audit_id" },
      to: { step: 6, location: "path", key: "segment 2" },
    },
    {
      from: { step: 1, key: "token" },
      to: { step: 7, location: "request header", key: "authorization" },
    },
  ]);
});

Deno.test("deriveDataFlow() ignores trivial values, echoes of client input and earlier steps' own requests", () => {
  const steps = [
    call({
      query: { package: "requests" },
      response: json({
        package: "requests",
        ok: true,
        n: 1,
        zero: 0,
        id: "ab",
        items: [{ sku: "X-100" }],
      }),
    }),
    call({ request: json({ package: "requests", ok: true, n: 1, zero: 0, id: "ab" }) }),
    call({ request: json({ lines: [{ sku: "X-100" }] }) }),
  ];
  assert.deepEqual(deriveDataFlow(steps), [
    {
      from: { step: 1, key: "items[0].sku" },
      to: { step: 3, location: "request body", key: "lines[0].sku" },
    },
  ]);
});

Deno.test("deriveDataFlow() links a small id into a path or query parameter of the same name only", () => {
  const steps = [
    call({ method: "POST", response: json({ id: 1, count: 1 }) }),
    call({ query: { limit: "1" } }),
    call({ path: "/requests/1", route: "/requests/:id", params: { id: "1" } }),
    call({ query: { id: "1" } }),
    call({ path: "/pages/1", route: "/pages/:page", params: { page: "1" } }),
  ];
  assert.deepEqual(deriveDataFlow(steps), [
    { from: { step: 1, key: "id" }, to: { step: 3, location: "path", key: ":id" } },
    { from: { step: 1, key: "id" }, to: { step: 4, location: "query", key: "id" } },
  ]);
});

Deno.test("deriveDataFlow() returns nothing for a single step or non-JSON responses", () => {
  assert.deepEqual(deriveDataFlow([call({ response: json({ id: "abc" }) })]), []);
  assert.deepEqual(
    deriveDataFlow([
      call({ response: { type: "text", value: "abc" } }),
      call({ request: json({ id: "abc" }) }),
    ]),
    [],
  );
});
