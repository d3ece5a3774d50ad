/**
 * A settings area: the environment variables one adapter area reads (one zod
 * schema per variable) and the factory that turns their parsed values into
 * that area's typed options, reporting cross-variable rules as issues. The
 * composition root (`src/settings.ts`, beside `src/server.ts`) merges the
 * areas; the server and `policyd check-config` both run these same schemas
 * and rules. Adapters and services never see the merged settings: each
 * factory takes its own area's options (see docs/architecture.md).
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

/** Thrown when a setting is invalid; the message names the variable. */
export class SettingsError extends Error {
  constructor(readonly issues: Array<Pick<SettingsIssue, "variable" | "message">>) {
    super(
      issues.map((i) => `Invalid setting ${i.variable}: ${i.message}`).join("; "),
    );
    this.name = "SettingsError";
  }
}

/** A source of environment variables; `Deno.env.toObject()` in production. */
export type Environment = Record<string, string | undefined>;

/**
 * One area's typed options straight from an environment (its own variables
 * only; empty strings count as unset). Throws a {@link SettingsError} naming
 * every invalid variable and every rule violation. For tests and examples of
 * one adapter; the server computes all areas at once in `src/settings.ts`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const cacheArea = defineArea({
 *   name: "cache",
 *   variables: { CACHE_TTL_SECONDS: z.coerce.number().default(21600) },
 *   options: (v) => ({ ttlSeconds: v.CACHE_TTL_SECONDS }),
 * });
 * optionsFromEnv(cacheArea, { CACHE_TTL_SECONDS: "60" }).ttlSeconds; // 60
 * ```
 */
export function optionsFromEnv<V extends z.ZodRawShape, O>(
  area: SettingsArea<V, O>,
  env: Environment,
): O {
  const { options, issues } = tryOptionsFromEnv(area, env);
  if (issues.length > 0) throw new SettingsError(issues);
  return options;
}

/**
 * {@link optionsFromEnv} without throwing: the options (an invalid variable at
 * its default) and every issue, invalid variables first, then rule violations.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const area = defineArea({
 *   name: "demo",
 *   variables: { DEMO_PORT: z.coerce.number().int().default(80) },
 *   options: (v) => ({ port: v.DEMO_PORT }),
 * });
 * const { options, issues } = tryOptionsFromEnv(area, { DEMO_PORT: "eighty" });
 * [options.port, issues[0].variable]; // [80, "DEMO_PORT"]
 * ```
 */
export function tryOptionsFromEnv<V extends z.ZodRawShape, O>(
  area: SettingsArea<V, O>,
  env: Environment,
): { options: O; issues: Array<Pick<SettingsIssue, "variable" | "message">> } {
  const issues: Array<Pick<SettingsIssue, "variable" | "message">> = [];
  const values: Record<string, unknown> = {};
  for (const [variable, schema] of Object.entries(area.variables)) {
    const raw = env[variable];
    const parsed = (schema as z.ZodType).safeParse(raw === "" ? undefined : raw);
    if (parsed.success) values[variable] = parsed.data;
    else {
      parsed.error.issues.forEach((i) => issues.push({ variable, message: i.message }));
      values[variable] = (schema as z.ZodType).safeParse(undefined).data;
    }
  }
  const options = area.options(
    values as { [K in keyof V]: z.output<V[K]> },
    (variable, message) => issues.push({ variable, message }),
  );
  return { options, issues };
}

/**
 * The parsed settings object as `module:` classes receive it (SPEC §15.29):
 * every variable by name. Only the composition root builds it; code outside
 * the root passes it through without reading it.
 */
export type ParsedSettings = Readonly<Record<string, unknown>>;
