/**
 * Validates SARIF logs against the official SARIF 2.1.0 JSON schema
 * (vendored in tests/fixtures/sarif) with ajv.
 *
 * @module
 */

import { Ajv } from "ajv";
import formats from "ajv-formats";

// ajv-formats is CommonJS; under Deno its plugin function is the `default` member.
const addFormats = formats.default;

const SCHEMA = new URL("../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url);

/** A validator: the list of schema violations of a document (empty when valid). */
export function sarifValidator(): (doc: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(Deno.readTextFileSync(SCHEMA)));
  return (doc) =>
    validate(doc)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}
