/**
 * Server settings (SPEC §4): one zod schema, parsed from the environment on
 * every call to {@link loadSettings}, so tests can override variables per test.
 *
 * @module
 */
import { z } from "zod";

const boolean = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["true", "false", "1", "0", "yes", "no", "on", "off"].includes(v), {
    message: "expected true or false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const nonNegative = z.coerce.number().min(0);

/** The schema of every server setting, keyed by environment variable. */
export const settingsSchema = z.object({
  POLICY_HOST: z.string().min(1).default("127.0.0.1"),
  POLICY_PORT: port.default(8765),
  POLICY_DB_PATH: z.string().min(1).default("./policyd.db"),
  POLICY_PROJECT_NAME: z.string().min(1).default("policyd"),
  REGISTRY_PATH: z.string().optional(),
  REGISTRY_RELOAD_INTERVAL: nonNegative.default(5),
  REGISTRY_WEBHOOK_SECRET: z.string().min(1).optional(),
  REGISTRY_PROPOSER: z
    .string()
    .regex(/^(log_only|local_file|local_git|github|module:.+:[A-Za-z_$][\w$]*)$/, {
      message: "expected log_only, local_file, local_git, github or module:<specifier>:<Export>",
    })
    .optional(),
  REGISTRY_REPO_URL: z.string().min(1).optional(),
  REGISTRY_REPO_WORKDIR: z.string().min(1).default("./.policyd/registry-repo"),
  REGISTRY_REPO_FILE: z.string().min(1).default("registry/registry.yaml"),
  REGISTRY_GITHUB_REPO: z
    .string()
    .regex(/^[\w.-]+\/[\w.-]+$/, { message: "expected owner/name" })
    .optional(),
  REGISTRY_BOT_AUTHOR_NAME: z.string().min(1).default("policyd-bot"),
  REGISTRY_BOT_AUTHOR_EMAIL: z.string().min(1).default("policyd-bot@users.noreply.github.com"),
  GITHUB_TOKEN: z.string().min(1).optional(),
  GITHUB_API_URL: z.url().default("https://api.github.com"),
  REDIS_URL: z
    .string()
    .refine((v) => v === "none" || /^rediss?:\/\//.test(v), {
      message: "expected redis://…, rediss://… or none",
    })
    .optional(),
  CACHE_TTL_SECONDS: nonNegative.default(21600),
  OSV_API_URL: z.url().default("https://api.osv.dev"),
  PYPI_URL: z.url().default("https://pypi.org"),
  LOOKUP_TIMEOUT_MS: positiveInt.default(4000),
  CVE_SCAN_SCHEDULE: z.string().min(1).default("0 */6 * * *"),
  AUTH_ENABLED: boolean.default(false),
  AUTH_BACKEND: z
    .string()
    .regex(/^(header|webhook|apikey|module:.+:[A-Za-z_$][\w$]*)$/, {
      message: "expected header, webhook, apikey or module:<specifier>:<Export>",
    })
    .default("header"),
  AUTH_VERIFY_URL: z.url().optional(),
  OPERATOR_GROUP: z.string().min(1).default("policy-admins"),
  TRUSTED_PROXIES: z.string().default("127.0.0.1/32"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

/** Parsed server settings. */
export type Settings = z.infer<typeof settingsSchema>;

/** Default registry path used for reading when `REGISTRY_PATH` is unset (SPEC §15.21). */
export const DEFAULT_REGISTRY_PATH = "./registry/registry.yaml";

/** Thrown when a setting is invalid; the message names the variable. */
export class SettingsError extends Error {
  constructor(readonly issues: Array<{ variable: string; message: string }>) {
    super(
      issues.map((i) => `Invalid setting ${i.variable}: ${i.message}`).join("; "),
    );
    this.name = "SettingsError";
  }
}

/** A source of environment variables; `Deno.env.toObject()` in production. */
export type Environment = Record<string, string | undefined>;

/**
 * Parses the settings from an environment. Empty strings count as unset, so
 * `FOO=` in an env file falls back to the default.
 *
 * @example
 * ```ts
 * const settings = loadSettings({ POLICY_PORT: "9000" });
 * settings.POLICY_PORT; // 9000
 * ```
 */
export function loadSettings(env: Environment): Settings {
  const present: Record<string, string> = {};
  for (const key of Object.keys(settingsSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") present[key] = value;
  }
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    throw new SettingsError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "environment"),
        message: issue.message,
      })),
    );
  }
  return parsed.data;
}

/** The registry path to read: `REGISTRY_PATH` when set, else the default. */
export function registryPath(settings: Settings): string {
  return settings.REGISTRY_PATH ?? DEFAULT_REGISTRY_PATH;
}
