/**
 * Turns raw body bytes into a `RecordedBody` (JSON, text, or omitted).
 *
 * @module
 */
import type { RecordedBody } from "./types.ts";

const TEXTUAL =
  /^(text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|yaml|x-yaml|javascript|x-www-form-urlencoded|graphql))/i;

/**
 * Decodes a body for the document: JSON when the content type says JSON and it
 * parses, text for textual types (or no type) that are valid UTF-8, otherwise
 * an `omitted` note with the type and size. Empty bodies give `undefined`.
 *
 * @example
 * ```ts
 * import { decodeBody } from "./body.ts";
 * decodeBody(new TextEncoder().encode('{"a":1}'), "application/json");
 * // { type: "json", value: { a: 1 } }
 * ```
 */
export function decodeBody(
  bytes: Uint8Array | undefined,
  contentType: string | null,
): RecordedBody | undefined {
  if (bytes === undefined) return { type: "omitted", reason: `${contentType ?? "stream"} stream` };
  if (bytes.length === 0) return undefined;
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "" && !TEXTUAL.test(type)) {
    return { type: "omitted", reason: `${type}, ${bytes.length} bytes` };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { type: "omitted", reason: `${type || "binary"}, ${bytes.length} bytes` };
  }
  if (type.includes("json")) {
    try {
      return { type: "json", value: JSON.parse(text) };
    } catch {
      return { type: "text", value: text };
    }
  }
  return { type: "text", value: text };
}
