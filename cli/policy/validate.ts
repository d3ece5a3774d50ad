/**
 * Validation at the client's edges without zod on the common path: a
 * validator generated from the zod schema (`cli/policy/generated/`, written by
 * `deno task schema`) accepts valid input, filling defaults and stripping
 * unknown keys as zod would; only input it rejects loads zod, which then
 * decides and words the error. The generated code is exact or stricter than
 * zod, never looser (tools/gen_validators.ts), so the result is zod's either
 * way; loading zod costs more than the whole `policy check` start-up budget
 * (docs/performance.md, "Client start-up").
 *
 * @module
 */

import type { z } from "zod";
import type { GeneratedValidator } from "./generated/validators.js";

/** The outcome of {@link validate}: the value, or the first problem zod found. */
export type Validated<T> =
  | { ok: true; value: T }
  | { ok: false; key: string | null; message: string };

/**
 * Validates `data` with the generated validator `fast`, falling back to the
 * zod schema that `loadSchema` imports when it rejects. `data` may be
 * modified in place (defaults, stripped keys), as the result is.
 *
 * @example
 * ```ts
 * import { validate } from "./validate.ts";
 * import { configFile } from "./generated/validators.js";
 * const result = await validate(
 *   configFile,
 *   { mode: "team" },
 *   async () => (await import("./config_schema.ts")).ConfigFileSchema,
 * );
 * // { ok: false, key: "mode", message: 'Invalid option: expected one of "single-user"|"org"' }
 * ```
 */
export async function validate<T>(
  fast: GeneratedValidator,
  data: unknown,
  loadSchema: () => Promise<z.ZodType<T>>,
): Promise<Validated<T>> {
  if (fast(data)) return { ok: true, value: data as T };
  const result = (await loadSchema()).safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const keys = (issue as { keys?: string[] }).keys;
  const key = issue.path.length ? issue.path.join(".") : keys?.length ? keys.join(", ") : null;
  return { ok: false, key, message: issue.message.split("\n")[0] };
}
