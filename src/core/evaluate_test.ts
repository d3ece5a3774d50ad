import { deepStrictEqual, equal } from "node:assert/strict";
import { factsVerdict, registryVerdict } from "./evaluate.ts";
import type {
  Decision,
  EvaluationFacts,
  EvaluationRequest,
  LicenseFacts,
  RegistrySnapshot,
  Vulnerability,
  VulnerabilityFacts,
} from "./types.ts";
import { snapshotOf, TEST_REGISTRY_YAML } from "../../tests/helpers/registry.ts";

const snapshot = await snapshotOf(TEST_REGISTRY_YAML);
const NOW = new Date("2026-11-23T12:00:00Z");

/** The service's path: the registry's verdict first, the facts only when it has none. */
function evaluate(
  request: EvaluationRequest,
  registry: RegistrySnapshot,
  facts: EvaluationFacts,
): Decision {
  return registryVerdict(request, registry) ?? factsVerdict(request, registry, facts, NOW);
}

const HARD_BLOCKS = ["DENIAL_BANNED", "DENIAL_DEPRECATED", "DENIAL_VERSION_CONSTRAINT"];

function vuln(
  id: string,
  score: number | null,
  ranges: Array<[string, string]> = [],
): Vulnerability {
  return {
    id,
    aliases: [id],
    score,
    affected: [{
      versions: [],
      ranges: ranges.map(([introduced, fixed]) => ({ events: [{ introduced }, { fixed }] })),
    }],
  };
}

const vulns = (...list: Vulnerability[]): VulnerabilityFacts => ({
  status: "ok",
  vulnerabilities: list,
});
const license = (spdx: string, latest = "9.9.9", raw: string | null = spdx): LicenseFacts => ({
  status: "ok",
  license: spdx,
  license_raw: raw,
  latest_version: latest,
});
const none: EvaluationFacts = { vulnerabilities: null, license: null };
const clean: EvaluationFacts = { vulnerabilities: vulns(), license: license("MIT") };

Deno.test("evaluate() applies the rules of SPEC §6.1 in order", async (t) => {
  const cases: Array<{
    name: string;
    pkg: string;
    version?: string;
    facts: EvaluationFacts;
    verdict: string;
    category: string | null;
    registry_status?: string | null;
  }> = [
    {
      name: "banned package is denied without data",
      pkg: "pycrypto",
      facts: none,
      verdict: "DENIED",
      category: "DENIAL_BANNED",
    },
    {
      name: "banned wins over a clean license",
      pkg: "pycrypto",
      facts: clean,
      verdict: "DENIED",
      category: "DENIAL_BANNED",
    },
    {
      name: "banned wins over a critical CVE",
      pkg: "pycrypto",
      facts: { ...clean, vulnerabilities: vulns(vuln("CVE-1", 9.8)) },
      verdict: "DENIED",
      category: "DENIAL_BANNED",
    },
    {
      name: "deprecated package is denied",
      pkg: "nose",
      facts: clean,
      verdict: "DENIED",
      category: "DENIAL_DEPRECATED",
    },
    {
      name: "version below min_version is denied",
      pkg: "pyyaml",
      version: "5.3",
      facts: clean,
      verdict: "DENIED",
      category: "DENIAL_VERSION_CONSTRAINT",
    },
    {
      name: "min_version itself is inside the range",
      pkg: "pyyaml",
      version: "6.0.1",
      facts: clean,
      verdict: "ALLOWED",
      category: null,
    },
    {
      name: "max_version itself is inside the range",
      pkg: "urllib3",
      version: "2.2.9",
      facts: clean,
      verdict: "ALLOWED",
      category: null,
    },
    {
      name: "version above max_version is denied",
      pkg: "urllib3",
      version: "2.3.0",
      facts: clean,
      verdict: "DENIED",
      category: "DENIAL_VERSION_CONSTRAINT",
    },
    {
      name: "version-constrained without a version is allowed",
      pkg: "pyyaml",
      facts: clean,
      verdict: "ALLOWED",
      category: null,
    },
    {
      name: "constraint is checked before CVEs",
      pkg: "pyyaml",
      version: "5.3",
      facts: { ...clean, vulnerabilities: vulns(vuln("CVE-2", 9.8)) },
      verdict: "DENIED",
      category: "DENIAL_VERSION_CONSTRAINT",
    },
    {
      name: "preferred package with a CVE at the threshold is denied",
      pkg: "requests",
      version: "2.0.0",
      facts: { ...clean, vulnerabilities: vulns(vuln("CVE-3", 7.0)) },
      verdict: "DENIED",
      category: "DENIAL_CVE",
    },
    {
      name: "preferred package with a CVE below the threshold is allowed",
      pkg: "requests",
      version: "2.0.0",
      facts: { ...clean, vulnerabilities: vulns(vuln("CVE-4", 6.9)) },
      verdict: "ALLOWED",
      category: null,
    },
    {
      name: "approved package without data is allowed",
      pkg: "flask",
      facts: none,
      verdict: "ALLOWED",
      category: null,
    },
    {
      name: "CVE check comes before the license check",
      pkg: "left-pad",
      version: "1.0",
      facts: { vulnerabilities: vulns(vuln("CVE-5", 9.1)), license: license("GPL-3.0-only") },
      verdict: "DENIED",
      category: "DENIAL_CVE",
    },
    {
      name: "unknown package with a denied license is denied",
      pkg: "left-pad",
      facts: { vulnerabilities: vulns(), license: license("GPL-3.0-only") },
      verdict: "DENIED",
      category: "DENIAL_LICENSE",
      registry_status: null,
    },
    {
      name: "unknown package with an allowed license is provisional",
      pkg: "left-pad",
      facts: clean,
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
    },
    {
      name: "unknown package with an unlisted license is provisional",
      pkg: "left-pad",
      facts: { vulnerabilities: vulns(), license: license("EPL-2.0") },
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
    },
    {
      name: "unknown license under the provisional policy is provisional",
      pkg: "left-pad",
      facts: { vulnerabilities: vulns(), license: license("UNKNOWN", "1.0", null) },
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
    },
    {
      name: "OR expression passes when one branch is allowed",
      pkg: "left-pad",
      facts: { vulnerabilities: vulns(), license: license("GPL-3.0-only OR MIT") },
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
    },
    {
      name: "AND expression needs every branch",
      pkg: "left-pad",
      facts: { vulnerabilities: vulns(), license: license("MIT AND GPL-2.0-or-later") },
      verdict: "DENIED",
      category: "DENIAL_LICENSE",
    },
    {
      name: "missing data never denies by itself",
      pkg: "left-pad",
      facts: none,
      verdict: "PROVISIONALLY_ALLOWED",
      category: null,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const request = { name: c.pkg, version: c.version ?? null };
      const d = evaluate(request, snapshot, c.facts);
      equal(d.verdict, c.verdict, d.reason);
      // registryVerdict answers exactly the hard blocks, with no facts at all.
      const byRegistry = registryVerdict(request, snapshot);
      equal(byRegistry !== null, HARD_BLOCKS.includes(c.category ?? ""));
      if (byRegistry) equal(byRegistry.data.vulnerabilities.status, "skipped");
      equal(d.denial_category, c.category);
      if (c.registry_status !== undefined) equal(d.registry_status, c.registry_status);
    });
  }
});

Deno.test("evaluate() reports the replacement of banned and deprecated packages", () => {
  const banned = evaluate({ name: "pycrypto", version: null }, snapshot, none);
  equal(banned.replacement, "cryptography");
  equal(banned.reason.includes("cryptography"), true);
  const deprecated = evaluate({ name: "nose", version: null }, snapshot, none);
  equal(deprecated.replacement, "pytest");
});

Deno.test("evaluate() under unknown_license_policy deny denies UNKNOWN licenses", async () => {
  const strict = await snapshotOf("policies: {unknown_license_policy: deny}\npackages: []\n");
  const d = evaluate({ name: "mystery", version: null }, strict, {
    vulnerabilities: vulns(),
    license: license("UNKNOWN", "1.0", null),
  });
  equal(d.verdict, "DENIED");
  equal(d.denial_category, "DENIAL_LICENSE_UNKNOWN");
});

Deno.test("evaluate() does not block on CVEs when block_on_cve is false", async () => {
  const lax = await snapshotOf(
    "policies: {block_on_cve: false}\npackages: [{name: requests, status: preferred}]\n",
  );
  const d = evaluate({ name: "requests", version: "1.0" }, lax, {
    ...clean,
    vulnerabilities: vulns(vuln("CVE-9", 9.8)),
  });
  equal(d.verdict, "ALLOWED");
  equal(d.max_cvss, 9.8);
});

Deno.test("evaluate() scopes version-less CVEs to the latest release under 'latest', all under 'any'", async () => {
  const old = vuln("CVE-OLD", 9.8, [["0", "2.0"]]);
  const facts: EvaluationFacts = { vulnerabilities: vulns(old), license: license("MIT", "2.5") };
  const latest = evaluate({ name: "requests", version: null }, snapshot, facts);
  equal(latest.verdict, "ALLOWED");
  deepStrictEqual(latest.cves, []);
  const any = await snapshotOf(
    "policies: {unversioned_cve_scope: any}\npackages: [{name: requests, status: preferred}]\n",
  );
  const all = evaluate({ name: "requests", version: null }, any, facts);
  equal(all.verdict, "DENIED");
  deepStrictEqual(all.cves.map((c) => c.id), ["CVE-OLD"]);
});

Deno.test("evaluate() lists CVEs highest score first and keeps license fields null for registry packages", () => {
  const d = evaluate({ name: "requests", version: "1.0" }, snapshot, {
    vulnerabilities: vulns(vuln("CVE-A", 3.1), vuln("CVE-B", 6.5), vuln("GHSA-x", null)),
    license: license("Apache-2.0"),
  });
  deepStrictEqual(d.cves.map((c) => c.id), ["CVE-B", "CVE-A", "GHSA-x"]);
  equal(d.max_cvss, 6.5);
  equal(d.license, null);
  equal(d.license_raw, null);
  equal(d.latest_version, "9.9.9");
});

Deno.test("evaluate() keeps license and license_raw for unknown packages", () => {
  const d = evaluate({ name: "left-pad", version: null }, snapshot, {
    vulnerabilities: vulns(),
    license: license("BSD-3-Clause", "1.3.0", "License :: OSI Approved :: BSD License"),
  });
  equal(d.license, "BSD-3-Clause");
  equal(d.license_raw, "License :: OSI Approved :: BSD License");
  equal(d.registry_status, null);
});
