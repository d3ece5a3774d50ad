/**
 * Schema fragments several contracts share: an object of integer counts, a
 * required bounded text, the optional fields of a registry rule and the
 * per-package tally of the review queues.
 *
 * @module
 */
import { z } from "zod";

/**
 * An object with one integer count per key, in the order of `keys`.
 *
 * @example
 * ```ts
 * import { intCounts } from "./fragments.ts";
 * intCounts(["low", "high"]).parse({ low: 1, high: 0 }); // { low: 1, high: 0 }
 * ```
 */
export function intCounts<K extends string>(
  keys: readonly K[],
): z.ZodObject<Record<K, z.ZodNumber>> {
  const shape = Object.fromEntries(keys.map((key) => [key, z.number().int()]));
  return z.object(shape as Record<K, z.ZodNumber>);
}

/**
 * A required, trimmed text of at most `max` characters; `missing` is the
 * message when it is empty.
 *
 * @example
 * ```ts
 * import { requiredText } from "./fragments.ts";
 * requiredText(10, "a reason is required").safeParse(" ").success; // false
 * ```
 */
export function requiredText(max: number, missing: string): z.ZodString {
  return z
    .string({ message: "required string" })
    .trim()
    .min(1, { message: missing })
    .max(max, { message: `at most ${max} characters` });
}

/** The optional fields of a registry rule, as compiled and as the change log records it. */
export const RULE_OPTIONAL_FIELDS = {
  reason: z.string().optional(),
  replacement: z.string().optional(),
  min_version: z.string().optional(),
  max_version: z.string().optional(),
};

/** How often a package was asked for and from which projects (the review queues). */
export const PACKAGE_TALLY_FIELDS = {
  count: z.number().int(),
  projects: z.array(z.string()),
};
