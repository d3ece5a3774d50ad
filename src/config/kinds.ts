/**
 * Value kinds shared by the settings areas: booleans as env files write
 * them, ports, positive integers, non-negative numbers.
 *
 * @module
 */
import { z } from "zod";

/** `true/false`, `1/0`, `yes/no`, `on/off`, any case. */
export const booleanVar = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["true", "false", "1", "0", "yes", "no", "on", "off"].includes(v), {
    message: "expected true or false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** A TCP port (0 picks a free one). */
export const portVar = z.coerce.number().int().min(0).max(65535);
/** An integer ≥ 1. */
export const positiveIntVar = z.coerce.number().int().min(1);
/** An integer ≥ 0. */
export const nonNegativeIntVar = z.coerce.number().int().min(0);
/** A number ≥ 0. */
export const nonNegativeVar = z.coerce.number().min(0);
/** A comma-separated list (blank items dropped). */
export const listVar = z
  .string()
  .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean));
