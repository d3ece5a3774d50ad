/**
 * Server settings (SPEC §4), the composition of the settings areas: each
 * adapter area declares its variables (zod) and an options factory next to
 * its code (`src/<area>/settings.ts`); this module merges them. Settings are
 * parsed from the environment on every call, so tests can override variables
 * per test. {@link tryLoadSettings} returns every issue at once; the server
 * ({@link loadSettings}) and `policyd check-config` run the same schemas.
 *
 * Adding a setting: one line in its area's `variables` (see docs/operations.md).
 *
 * @module
 */
import { z } from "zod";
import {
  type Environment,
  type ReportIssue,
  type SettingsArea,
  SettingsError,
  type SettingsIssue,
} from "./config/area.ts";
import { alertsArea } from "./alerts/settings.ts";
import { authArea } from "./auth/settings.ts";
import { cacheArea } from "./cache/settings.ts";
import { httpArea } from "./http/settings.ts";
import { guardArea } from "./http/guard_settings.ts";
import { loggingArea } from "./log/settings.ts";
import { lookupsArea } from "./lookups/settings.ts";
import { popularArea } from "./lookups/popular_settings.ts";
import { proposersArea } from "./proposers/settings.ts";
import { DEFAULT_REGISTRY_PATH, registryArea } from "./registry/settings.ts";
import { scannerArea } from "./scanner/settings.ts";
import { storeArea } from "./store/settings.ts";
import { indexArea } from "./index/settings.ts";

export { type Environment, SettingsError, type SettingsIssue } from "./config/area.ts";
export { DEFAULT_REGISTRY_PATH };

/** Every area, in the order their variables are documented. */
export const AREAS = {
  http: httpArea,
  guard: guardArea,
  store: storeArea,
  registry: registryArea,
  proposers: proposersArea,
  cache: cacheArea,
  lookups: lookupsArea,
  popular: popularArea,
  scanner: scannerArea,
  auth: authArea,
  logging: loggingArea,
  index: indexArea,
  alerts: alertsArea,
} as const;

/** The schema of every server setting, keyed by environment variable. */
export const settingsSchema = z.object({
  ...httpArea.variables,
  ...guardArea.variables,
  ...storeArea.variables,
  ...registryArea.variables,
  ...proposersArea.variables,
  ...cacheArea.variables,
  ...lookupsArea.variables,
  ...popularArea.variables,
  ...scannerArea.variables,
  ...authArea.variables,
  ...loggingArea.variables,
  ...indexArea.variables,
  ...alertsArea.variables,
});

/** Parsed server settings (every variable of every area). */
export type Settings = z.infer<typeof settingsSchema>;

/** The typed options of every area. */
export type Options = {
  [K in keyof typeof AREAS]: ReturnType<(typeof AREAS)[K]["options"]>;
};

const AREA_OF: Record<string, string> = Object.fromEntries(
  Object.values(AREAS).flatMap((area) => Object.keys(area.variables).map((v) => [v, area.name])),
);

/** Every issue of an environment, and the settings with invalid variables at their defaults. */
export interface SettingsReport {
  ok: boolean;
  settings: Settings;
  /** The areas' typed options (computed from `settings`). */
  options: Options;
  /** Invalid variables first (`rule` unset), then the areas' rule violations. */
  issues: SettingsIssue[];
}

/**
 * Computes one area's typed options from parsed settings, collecting its rule
 * violations.
 */
export function areaOptions<O>(
  // deno-lint-ignore no-explicit-any
  area: SettingsArea<any, O>,
  settings: Settings,
  issues: SettingsIssue[] = [],
): O {
  const report: ReportIssue = (variable, message) =>
    issues.push({ variable, message, area: area.name, rule: true });
  return area.options(settings, report);
}

/**
 * The typed options of every area, for the composition root; throws a
 * {@link SettingsError} naming each variable an area's rules reject.
 *
 * @example
 * ```ts
 * optionsOf(loadSettings({ POLICY_DB_PATH: "/data/policyd.db" })).store.dbPath; // "/data/policyd.db"
 * ```
 */
export function optionsOf(settings: Settings): Options {
  const issues: SettingsIssue[] = [];
  const options = collectOptions(settings, issues);
  if (issues.length > 0) throw new SettingsError(issues);
  return options;
}

function collectOptions(settings: Settings, issues: SettingsIssue[]): Options {
  return Object.fromEntries(
    Object.entries(AREAS).map((
      [key, area],
    ) => [
      key,
      areaOptions<unknown>(area as SettingsArea<z.ZodRawShape, unknown>, settings, issues),
    ]),
  ) as unknown as Options;
}

/**
 * Parses every variable on its own and runs every area's rules, so one bad
 * value never hides another. Empty strings count as unset.
 *
 * @example
 * ```ts
 * const report = tryLoadSettings({ POLICY_PORT: "eighty", LOG_LEVEL: "loud" });
 * report.issues.map((i) => i.variable); // ["POLICY_PORT", "LOG_LEVEL"]
 * report.settings.POLICY_PORT; // 8765 (the default stands in)
 * ```
 */
export function tryLoadSettings(env: Environment): SettingsReport {
  const issues: SettingsIssue[] = [];
  const values: Record<string, unknown> = {};
  for (const [variable, schema] of Object.entries(settingsSchema.shape)) {
    const raw = env[variable];
    const parsed = (schema as z.ZodType).safeParse(raw === "" ? undefined : raw);
    if (parsed.success) {
      values[variable] = parsed.data;
      continue;
    }
    for (const issue of parsed.error.issues) {
      issues.push({ variable, message: issue.message, area: AREA_OF[variable] });
    }
    values[variable] = (schema as z.ZodType).safeParse(undefined).data;
  }
  const settings = values as Settings;
  const options = collectOptions(settings, issues);
  return { ok: issues.length === 0, settings, options, issues };
}

/**
 * Parses the settings from an environment; throws a {@link SettingsError}
 * naming every invalid variable. (The areas' cross-variable rules are checked
 * by {@link optionsOf}, which the composition root calls before it opens anything.)
 *
 * @example
 * ```ts
 * const settings = loadSettings({ POLICY_PORT: "9000" });
 * settings.POLICY_PORT; // 9000
 * ```
 */
export function loadSettings(env: Environment): Settings {
  const report = tryLoadSettings(env);
  const invalid = report.issues.filter((i) => !i.rule);
  if (invalid.length > 0) throw new SettingsError(invalid);
  return report.settings;
}
