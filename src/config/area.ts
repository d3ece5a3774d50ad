/**
 * A settings area: the environment variables one adapter area reads (one zod
 * schema per variable) and the factory that turns their parsed values into
 * that area's typed options, reporting cross-variable rules as issues. The
 * composition root (`settings.ts`) merges the areas; the server and
 * `policyd check-config` both run these same schemas and rules.
 *
 * Adding a setting to an area is a one-place change: a line in its
 * `variables` (and, if it matters, a field of its options).
 *
 * @module
 */
import type { z } from "zod";

/** One problem with the configuration, naming the variable and its area. */
export interface SettingsIssue {
  variable: string;
  message: string;
  /** The area that reported it (`http`, `auth`, …). */
  area: string;
  /** Set for cross-variable rules (e.g. "AUTH_VERIFY_URL required when AUTH_BACKEND=webhook"). */
  rule?: boolean;
}

/** Reports a rule violation from an area's options factory. */
export type ReportIssue = (variable: string, message: string) => void;

/** The declaration of one area. */
export interface SettingsArea<V extends z.ZodRawShape, O> {
  name: string;
  /** Environment variable → schema (defaults included). */
  variables: V;
  /** Typed options from the parsed variables; rule violations go to `report`. */
  options(values: { [K in keyof V]: z.output<V[K]> }, report: ReportIssue): O;
}

/** Declares an area (an identity function that keeps the literal types). */
export function defineArea<V extends z.ZodRawShape, O>(
  area: SettingsArea<V, O>,
): SettingsArea<V, O> {
  return area;
}
