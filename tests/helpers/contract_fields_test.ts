import assert from "node:assert/strict";
import { z } from "zod";
import { exactly } from "./contract_fields.ts";

Deno.test("exactly() fails on an undocumented, a missing or a mistyped member", () => {
  const schema = z.looseObject({ status: z.string(), note: z.string().optional() });
  exactly(schema, { status: "ok" });
  exactly(schema, { status: "ok", note: "n" });
  assert.throws(() => exactly(schema, { status: "ok", extra: 1 }), /extra/);
  assert.throws(() => exactly(schema, {}), /status/);
  assert.throws(() => exactly(schema, { status: 1 }), /status/);
});
