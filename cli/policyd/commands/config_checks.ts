/**
 * The pre-flight checks of `policyd check-config` (seed "check-config"):
 * each check is independent and yields one row `ok`, `warn` or `fail` with a
 * hint. Nothing here contacts the git host; the only network call is the
 * cache probe when `REDIS_URL` names a Redis server. The checks on paths
 * (`path_checks.ts`), on the registry YAML (`registry_yaml_check.ts`) and on
 * the services (`service_checks.ts`) are composed here with the settings and
 * auth rows.
 *
 * @module
 */
import { parseCidrList } from "../../../src/auth/cidr.ts";
import {
  DEFAULT_REGISTRY_PATH,
  type Environment,
  type SettingsIssue,
  type SettingsReport,
  tryLoadSettings,
} from "../../../src/settings.ts";
import { redact } from "../../../src/log/redact.ts";
import { postgresDatabaseCheck } from "../../../src/store/postgres_check.ts";
import { type CheckRow, row } from "./check_row.ts";
import {
  databaseCheck,
  quickstartEnvFile,
  registryFileCheck,
  registryPathCheck,
} from "./path_checks.ts";
import { registryYamlCheck } from "./registry_yaml_check.ts";
import { cacheCheck, proposerCheck } from "./service_checks.ts";

export type { CheckRow, CheckStatus } from "./check_row.ts";

/** Issues the `auth` row reports (its rules); every other issue is the `settings` row's. */
const isAuthRule = (issue: SettingsIssue) => issue.rule === true && issue.area === "auth";

const describe = (issues: SettingsIssue[]) =>
  issues.map((i) => `Invalid setting ${i.variable}: ${i.message}`).join("; ");

/**
 * Runs the server's own settings schemas ({@link tryLoadSettings}): every
 * invalid variable is reported at once, and the other checks run on the
 * defaults in its place (checks stay independent).
 */
export function settingsCheck(report: SettingsReport): CheckRow {
  const issues = report.issues.filter((i) => !isAuthRule(i));
  if (issues.length === 0) return row("settings", "ok", "every variable parses");
  const names = [...new Set(issues.map((i) => i.variable))].join(", ");
  return row("settings", "fail", describe(issues), `fix or unset ${names} (see .env.example)`);
}

/** Whether a bind address only accepts local connections. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (bare.toLowerCase() === "localhost") return true;
  return parseCidrList("127.0.0.0/8, ::1/128").contains(bare);
}

const AUTH_HINTS: Record<string, string> = {
  TRUSTED_PROXIES:
    "list your proxy's address in TRUSTED_PROXIES as comma-separated CIDRs such as 10.0.0.0/8",
  AUTH_VERIFY_URL: "set AUTH_VERIFY_URL to the verifier's http(s) URL",
};

/** Authentication is configured deliberately (the rules are the `auth` area's). */
export function authCheck(report: SettingsReport, env: Environment): CheckRow {
  const { settings, options } = report;
  const broken = report.issues.filter(isAuthRule);
  if (broken.length > 0) {
    const hint = [...new Set(broken.map((i) => AUTH_HINTS[i.variable] ?? `fix ${i.variable}`))];
    return row("auth", "fail", describe(broken), hint.join("; "));
  }
  const auth = options.auth;
  if (!auth.enabled) {
    if (env.AUTH_BACKEND) {
      return row(
        "auth",
        "warn",
        `AUTH_BACKEND=${env.AUTH_BACKEND} is ignored: AUTH_ENABLED is false (anonymous mode)`,
        "set AUTH_ENABLED=true for org mode, or unset AUTH_BACKEND",
      );
    }
    return isLoopback(settings.POLICY_HOST)
      ? row("auth", "ok", `anonymous single-user mode on loopback ${settings.POLICY_HOST}`)
      : row(
        "auth",
        "warn",
        `anonymous mode on non-loopback ${settings.POLICY_HOST}: anyone who reaches the port acts as operator`,
        "bind POLICY_HOST=127.0.0.1, or set AUTH_ENABLED=true behind an authenticating proxy",
      );
  }
  switch (auth.backend) {
    case "header":
      return row("auth", "ok", `header backend trusting ${auth.trustedProxies.blocks.join(", ")}`);
    case "webhook":
      return row("auth", "ok", `webhook backend verifying at ${redact(auth.verifyUrl)}`);
    case "apikey":
      return row(
        "auth",
        "warn",
        "apikey backend is a placeholder: every authenticated request answers 501",
        "use header or webhook",
      );
    case "module":
      return row("auth", "ok", `custom backend ${auth.specifier} (not loaded by check-config)`);
  }
}

/** Runs every check and returns the rows in a fixed order. */
export async function runChecks(env: Environment): Promise<CheckRow[]> {
  const report = tryLoadSettings(env);
  const settings = report.settings;
  const registry = settings.REGISTRY_PATH ?? DEFAULT_REGISTRY_PATH;
  const [registryFile, registryYaml, database, cache, proposer, quickstartEnv] = await Promise.all([
    registryFileCheck(registry),
    registryYamlCheck(registry),
    settings.DATABASE_URL
      ? postgresDatabaseCheck(settings.DATABASE_URL)
      : databaseCheck(settings.POLICY_DB_PATH),
    cacheCheck(report.options.cache),
    proposerCheck(report.options),
    settings.REGISTRY_PATH ? null : quickstartEnvFile(),
  ]);
  return [
    settingsCheck(report),
    registryPathCheck(settings, quickstartEnv),
    registryFile,
    registryYaml,
    database,
    cache,
    proposer,
    authCheck(report, env),
  ];
}
