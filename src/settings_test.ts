import { deepEqual, equal, match, throws } from "node:assert/strict";
import { httpArea } from "./http/settings.ts";
import { optionsFromEnv } from "./config/area.ts";
import { loadSettings, optionsOf, SettingsError, tryLoadSettings } from "./settings.ts";

Deno.test("loadSettings() applies the defaults of SPEC §4", () => {
  const s = loadSettings({});
  equal(s.POLICY_HOST, "127.0.0.1");
  equal(s.POLICY_PORT, 8765);
  equal(s.POLICY_DB_PATH, "./policyd.db");
  equal(s.REGISTRY_RELOAD_INTERVAL, 5);
  equal(s.CACHE_TTL_SECONDS, 21600);
  equal(s.OSV_API_URL, "https://api.osv.dev");
  equal(s.PYPI_URL, "https://pypi.org");
  equal(s.LOOKUP_TIMEOUT_MS, 4000);
  equal(s.CVE_SCAN_SCHEDULE, "0 */6 * * *");
  equal(s.AUTH_ENABLED, false);
  equal(s.AUTH_BACKEND, "header");
  equal(s.OPERATOR_GROUP, "policy-admins");
  equal(s.TRUSTED_PROXIES, "127.0.0.1/32");
  equal(s.REGISTRY_PATH, undefined);
});

Deno.test("loadSettings() reads the environment on every call", () => {
  equal(loadSettings({ POLICY_PORT: "9000" }).POLICY_PORT, 9000);
  equal(loadSettings({ POLICY_PORT: "9001" }).POLICY_PORT, 9001);
  equal(loadSettings({ AUTH_ENABLED: "TRUE" }).AUTH_ENABLED, true);
  equal(loadSettings({ POLICY_PORT: "" }).POLICY_PORT, 8765, "empty counts as unset");
});

Deno.test("loadSettings() names the variable of an invalid value", async (t) => {
  const cases: Array<[string, string]> = [
    ["POLICY_PORT", "eighty"],
    ["POLICY_PORT", "70000"],
    ["AUTH_ENABLED", "maybe"],
    ["REDIS_URL", "localhost:6379"],
    ["OSV_API_URL", "not a url"],
    ["REGISTRY_PROPOSER", "ftp"],
    ["AUTH_BACKEND", "ldap"],
    ["LOG_LEVEL", "loud"],
    ["LOOKUP_TIMEOUT_MS", "0"],
  ];
  for (const [name, value] of cases) {
    await t.step(`${name}=${value}`, () => {
      throws(() => loadSettings({ [name]: value }), (error: unknown) => {
        equal(error instanceof SettingsError, true);
        match((error as Error).message, new RegExp(name));
        return true;
      });
    });
  }
});

Deno.test("tryLoadSettings() returns every issue at once, with defaults standing in", () => {
  const report = tryLoadSettings({
    POLICY_PORT: "eighty",
    LOG_LEVEL: "loud",
    REDIS_URL: "localhost:6379",
    AUTH_ENABLED: "true",
    AUTH_BACKEND: "webhook",
  });
  equal(report.ok, false);
  deepEqual(report.issues.map((i) => [i.variable, i.area, i.rule ?? false]), [
    ["POLICY_PORT", "http", false],
    ["REDIS_URL", "cache", false],
    ["LOG_LEVEL", "logging", false],
    ["AUTH_VERIFY_URL", "auth", true],
  ]);
  equal(report.settings.POLICY_PORT, 8765);
  equal(report.options.http.port, 8765);
  equal(report.options.cache.redisUrl, null);
});

Deno.test("each area's options are typed from its variables", () => {
  const { options, ok } = tryLoadSettings({
    AUTH_ENABLED: "true",
    TRUSTED_PROXIES: "10.0.0.0/8",
    RATE_LIMIT_PER_MINUTE: "600",
    ALLOWED_ORIGINS: "https://policy.example.com, http://localhost:3000",
  });
  equal(ok, true);
  equal(options.auth.enabled && options.auth.backend, "header");
  equal(options.http.rateLimitPerMinute, 600);
  deepEqual(options.http.allowedOrigins, ["https://policy.example.com", "http://localhost:3000"]);
  equal(options.lookups.timeoutMs, 4000);
  equal(options.registry.path, "./registry/registry.yaml");
});

Deno.test("optionsOf() and optionsFromEnv() raise an area's rule violations as a SettingsError", () => {
  const env = { ALLOWED_ORIGINS: "not an origin" };
  throws(() => optionsOf(loadSettings(env)), /Invalid setting ALLOWED_ORIGINS/);
  throws(() => optionsFromEnv(httpArea, env), /Invalid setting ALLOWED_ORIGINS/);
  throws(() => optionsFromEnv(httpArea, { POLICY_PORT: "eighty" }), SettingsError);
  equal(optionsFromEnv(httpArea, { POLICY_PORT: "" }).port, 8765, "empty counts as unset");
});
