import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { factsVerdict, releaseAgeDays } from "./facts_verdict.ts";
import { REASONS } from "./reasons.ts";
import { DENIAL_CATEGORIES } from "./types.ts";
import type { EvaluationFacts, LicenseFacts, Vulnerability, VulnerabilityFacts } from "./types.ts";
import { snapshotOf } from "../../tests/helpers/registry.ts";

const NOW = new Date("2026-11-23T12:00:00Z");
const FETCHED = "2026-11-23T11:00:00.000Z";

function vuln(id: string, score: number, aliases: string[] = []): Vulnerability {
  const everyVersion = { versions: [], ranges: [{ events: [{ introduced: "0" }] }] };
  return { id, aliases: [id, ...aliases], score, affected: [everyVersion] };
}
const vulns = (...list: Vulnerability[]): VulnerabilityFacts => ({
  status: "ok",
  vulnerabilities: list,
  fetched_at: FETCHED,
});
const license = (
  spdx: string,
  released_at: string | null = "2026-01-01T00:00:00Z",
): LicenseFacts => ({
  status: "ok",
  license: spdx,
  license_raw: spdx,
  latest_version: "2.32.3",
  released_at,
  fetched_at: FETCHED,
  cached: true,
});
const down = { status: "unavailable", detail: "HTTP 500" } as const;

const registry = (policies: string, exceptions = "[]") =>
  snapshotOf(`
policies: {${policies}}
packages:
  - {name: requests, status: preferred}
exceptions: ${exceptions}
`);

Deno.test("factsVerdict() reports each lookup's status and fetch time", async () => {
  const snapshot = await registry("");
  const d = factsVerdict({ name: "requests", version: null }, snapshot, {
    vulnerabilities: vulns(),
    license: license("Apache-2.0"),
  }, NOW);
  deepStrictEqual(d.data, {
    vulnerabilities: { status: "fresh", fetched_at: FETCHED },
    license: { status: "cached", fetched_at: FETCHED },
  });
  const missing = factsVerdict({ name: "requests", version: null }, snapshot, {
    vulnerabilities: down,
    license: down,
  }, NOW);
  equal(missing.verdict, "ALLOWED", "on_missing_data defaults to allow");
  deepStrictEqual(missing.data.vulnerabilities, { status: "unavailable", fetched_at: null });
  match(missing.reason, /vulnerability data was unavailable/);
});

Deno.test("factsVerdict() applies on_missing_data when a needed lookup is unavailable", async (t) => {
  const facts: EvaluationFacts = { vulnerabilities: down, license: license("MIT") };
  const outcomes = [
    ["provisional", "PROVISIONALLY_ALLOWED", null],
    ["deny", "DENIED", "DENIAL_DATA_UNAVAILABLE"],
  ] as const;
  for (const [setting, verdict, category] of outcomes) {
    await t.step(setting, async () => {
      const policies = await registry(`on_missing_data: ${setting}`);
      const d = factsVerdict({ name: "requests", version: null }, policies, facts, NOW);
      equal(d.verdict, verdict);
      equal(d.denial_category, category);
      match(d.reason, /vulnerability data was unavailable/);
    });
  }
  await t.step("deny names missing license data of an unknown package", async () => {
    const d = factsVerdict(
      { name: "left-pad", version: null },
      await registry("on_missing_data: deny"),
      { vulnerabilities: vulns(), license: down },
      NOW,
    );
    equal(d.denial_category, "DENIAL_DATA_UNAVAILABLE");
    match(d.reason, /license data was unavailable/);
  });
  await t.step("a real finding wins over missing data", async () => {
    const d = factsVerdict(
      { name: "gpl-lib", version: null },
      await registry("on_missing_data: deny, licenses: {denied: [GPL-3.0-only]}"),
      { vulnerabilities: down, license: license("GPL-3.0-only") },
      NOW,
    );
    equal(d.denial_category, "DENIAL_LICENSE");
  });
});

Deno.test("a live exception waives only the vulnerabilities it names and is listed", async () => {
  const exceptions = (expires: string) =>
    `[{package: requests, vulnerabilities: [GHSA-9wx4-h78v-vm56], reason: "not reachable", expires: "${expires}"}]`;
  const facts: EvaluationFacts = {
    vulnerabilities: vulns(vuln("CVE-2024-35195", 9.1, ["GHSA-9wx4-h78v-vm56"])),
    license: license("Apache-2.0"),
  };
  const live = factsVerdict(
    { name: "requests", version: "2.31.0" },
    await registry("", exceptions("2026-11-23")),
    facts,
    NOW,
  );
  equal(live.verdict, "ALLOWED", "an exception expiring today still holds");
  deepStrictEqual(live.cves, []);
  deepStrictEqual(live.exceptions_applied, [{
    package: "requests",
    vulnerabilities: ["CVE-2024-35195"],
    reason: "not reachable",
    expires: "2026-11-23",
  }]);
  const expired = factsVerdict(
    { name: "requests", version: "2.31.0" },
    await registry("", exceptions("2026-11-22")),
    facts,
    NOW,
  );
  equal(expired.verdict, "DENIED");
  equal(expired.denial_category, "DENIAL_CVE");
  deepStrictEqual(expired.exceptions_applied, []);
  const other = factsVerdict(
    { name: "requests", version: "2.31.0" },
    await registry("", exceptions("2027-01-01")),
    { ...facts, vulnerabilities: vulns(vuln("CVE-2024-35195", 9.1), vuln("CVE-2099-1", 9.8)) },
    NOW,
  );
  equal(other.denial_category, "DENIAL_CVE", "findings the exception does not name still deny");
  deepStrictEqual(other.cves.map((c) => c.id), ["CVE-2099-1", "CVE-2024-35195"]);
});

Deno.test("an exception limited to versions covers only those versions", async () => {
  const snapshot = await registry(
    "",
    `[{package: requests, versions: "<2.32", vulnerabilities: [CVE-1], reason: r, expires: "2027-01-01"}]`,
  );
  const facts = { vulnerabilities: vulns(vuln("CVE-1", 9.0)), license: license("MIT") };
  equal(
    factsVerdict({ name: "requests", version: "2.31.0" }, snapshot, facts, NOW).verdict,
    "ALLOWED",
  );
  equal(
    factsVerdict({ name: "requests", version: "2.32.0" }, snapshot, facts, NOW).verdict,
    "DENIED",
  );
  // Without a version the latest release (2.32.3 here) counts.
  equal(factsVerdict({ name: "requests", version: null }, snapshot, facts, NOW).verdict, "DENIED");
});

Deno.test("a license exception lifts a license denial of that package only", async () => {
  const snapshot = await registry(
    "licenses: {denied: [GPL-2.0-only]}, unknown_license_policy: deny",
    `[{package: mysql-connector-python, licenses: [GPL-2.0-only], reason: "FOSS exception", expires: "2027-06-30"},
      {package: mystery, licenses: [UNKNOWN], reason: "vendored", expires: "2027-06-30"}]`,
  );
  const facts = { vulnerabilities: vulns(), license: license("GPL-2.0-only") };
  const lifted = factsVerdict(
    { name: "mysql-connector-python", version: null },
    snapshot,
    facts,
    NOW,
  );
  equal(lifted.verdict, "PROVISIONALLY_ALLOWED");
  deepStrictEqual(lifted.exceptions_applied.map((e) => e.licenses), [["GPL-2.0-only"]]);
  equal(factsVerdict({ name: "other", version: null }, snapshot, facts, NOW).verdict, "DENIED");
  const unknown = factsVerdict({ name: "mystery", version: null }, snapshot, {
    vulnerabilities: vulns(),
    license: license("UNKNOWN"),
  }, NOW);
  equal(unknown.verdict, "PROVISIONALLY_ALLOWED");
  deepStrictEqual(unknown.exceptions_applied.map((e) => e.licenses), [["UNKNOWN"]]);
});

Deno.test("min_release_age_days makes young releases provisional", async (t) => {
  const snapshot = await registry("min_release_age_days: 7");
  const at = (released: string | null): EvaluationFacts => ({
    vulnerabilities: vulns(),
    license: license("MIT", released),
  });
  await t.step("2 days old", () => {
    const d = factsVerdict(
      { name: "requests", version: "2.32.3" },
      snapshot,
      at("2026-11-21T10:00:00Z"),
      NOW,
    );
    equal(d.verdict, "PROVISIONALLY_ALLOWED");
    match(d.reason, /released 2 days ago; the policy waits 7 days/);
  });
  await t.step("old enough", () => {
    equal(
      factsVerdict({ name: "requests", version: null }, snapshot, at("2026-11-16T11:59:00Z"), NOW)
        .verdict,
      "ALLOWED",
    );
  });
  await t.step("unknown upload time follows on_missing_data", async () => {
    equal(
      factsVerdict({ name: "requests", version: null }, snapshot, at(null), NOW).verdict,
      "ALLOWED",
    );
    const strict = await registry("min_release_age_days: 7, on_missing_data: deny");
    const d = factsVerdict({ name: "requests", version: null }, strict, at(null), NOW);
    equal(d.denial_category, "DENIAL_DATA_UNAVAILABLE");
    match(d.reason, /upload time was unknown/);
    const noIndex = factsVerdict({ name: "requests", version: null }, strict, {
      vulnerabilities: vulns(),
      license: down,
    }, NOW);
    equal(noIndex.denial_category, "DENIAL_DATA_UNAVAILABLE");
    match(noIndex.reason, /release data from the package index was unavailable/);
  });
  await t.step("an unknown package keeps its review note and gains the cooldown", () => {
    const d = factsVerdict(
      { name: "left-pad", version: null },
      snapshot,
      at("2026-11-23T00:00:00Z"),
      NOW,
    );
    equal(d.verdict, "PROVISIONALLY_ALLOWED");
    match(
      d.reason,
      /released today; the policy waits 7 days; provisionally allowed pending review$/,
    );
  });
  equal(releaseAgeDays("not a time", NOW), null);
});

Deno.test("every denial category has a reason text", () => {
  for (const category of DENIAL_CATEGORIES) ok(typeof REASONS[category] === "function", category);
});
