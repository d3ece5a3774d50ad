/**
 * Request validation helpers: zod at the edge, failures as 400 problems
 * with path-qualified errors.
 *
 * @module
 */
import type { z } from "zod";
import type { Context } from "hono";
import { formatPath } from "../registry/schema.ts";
import { badRequest } from "./problem.ts";

/** Parses a value with a schema or throws a 400 problem naming each bad field. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  throw badRequest(
    `invalid ${what}: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
    errors,
  );
}

/** Reads a JSON body or throws a 400 problem when it is not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") throw badRequest("request body is empty; expected JSON");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
}
