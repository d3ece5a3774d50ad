/**
 * Asserts that a recorded answer has exactly the members its contract
 * documents (the contract's schema read strictly at the top level), so a
 * workflow's example cannot drift from the contract.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";

/** Fails when `body` lacks a documented member, has an undocumented one, or mistypes one. */
export function exactly(schema: z.ZodObject, body: unknown): void {
  const result = z.strictObject(schema.shape).safeParse(body);
  assert.ok(result.success, result.success ? "" : z.prettifyError(result.error));
}
