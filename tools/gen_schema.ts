/**
 * Writes `registry/registry.schema.json` from the zod validator
 * (`deno task schema`). A test fails when the committed file is stale.
 *
 * @module
 */
import { registryJsonSchemaText } from "../src/registry/json_schema.ts";

if (import.meta.main) {
  const target = new URL("../registry/registry.schema.json", import.meta.url);
  await Deno.writeTextFile(target, registryJsonSchemaText());
  console.log(`wrote ${target.pathname}`);
}
