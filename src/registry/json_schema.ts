/**
 * The JSON Schema of registry documents, generated from the one zod
 * validator so editors and CI can validate `registry.yaml` too.
 *
 * @module
 */
import { z } from "zod";
import { registryDocumentSchema } from "./schema.ts";

/** Builds the JSON Schema (input side: what authors write). */
export function registryJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(registryDocumentSchema, { io: "input", unrepresentable: "any" });
  return {
    ...schema,
    $id: "https://policyd.dev/schemas/registry.schema.json",
    title: "policyd registry",
    description:
      "Package rules and global policies of a policyd registry (registry.yaml). Names are PEP 503-normalised on compile; versions are PEP 440.",
  };
}

/** The schema as the text committed in `registry/registry.schema.json`. */
export function registryJsonSchemaText(): string {
  return JSON.stringify(registryJsonSchema(), null, 2) + "\n";
}
