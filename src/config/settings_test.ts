import { equal, match, throws } from "node:assert/strict";
import { loadSettings, SettingsError } from "./settings.ts";

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
