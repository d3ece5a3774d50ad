/**
 * Compares a real answer with the JSON Schema its zod contract generates
 * (the schema OpenAPI publishes), field for field and at every depth.
 *
 * @module
 */
import { z } from "zod";

/** The parts of a JSON Schema the comparison reads. */
export type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
};

/** The JSON Schema of a contract's output, as OpenAPI publishes it. */
export function outputSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
}

/** Paths of members of `value` that `schema` does not describe, and described members it lacks. */
export function drift(value: unknown, schema: JsonSchema, path: string): string[] {
  const object = schema.anyOf?.find((s) => s.properties || s.items);
  if (object) return drift(value, object, path);
  if (Array.isArray(value)) {
    return schema.items ? value.flatMap((v, i) => drift(v, schema.items!, `${path}[${i}]`)) : [];
  }
  if (value === null || typeof value !== "object" || !schema.properties) return [];
  const out: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const described = schema.properties[key];
    if (described) out.push(...drift(member, described, `${path}.${key}`));
    else out.push(`${path}.${key} is not in the schema`);
  }
  for (const key of schema.required ?? []) {
    if (!(key in value)) out.push(`${path}.${key} is required but missing`);
  }
  return out;
}
