import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createOsvSource } from "./osv.ts";
import { isMaliciousRecord, osvRecordSchema, toVulnerabilities } from "./osv_records.ts";
import { optionsFromEnv } from "../config/area.ts";
import { lookupsArea } from "./settings.ts";
import { silentLogger } from "../log/logger.ts";
import type { Vulnerability } from "../core/types.ts";
import { isAffected } from "../core/affected.ts";
import { startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";
import { forEachUpstreamFault } from "../../tests/helpers/upstream_faults.ts";

function settingsFor(url: string, timeoutMs = 2000) {
  return optionsFromEnv(lookupsArea, { OSV_API_URL: url, LOOKUP_TIMEOUT_MS: String(timeoutMs) });
}

async function query(name: string, version: string | null, pageSize = 1000) {
  const upstream = await startFakeUpstream({ pageSize });
  try {
    const facts = await createOsvSource(settingsFor(upstream.url), silentLogger).query(
      name,
      version,
    );
    if (facts.status !== "ok") throw new Error(facts.detail);
    return { vulns: facts.vulnerabilities, calls: { ...upstream.calls } };
  } finally {
    await upstream.close();
  }
}

const summary = (vulns: Vulnerability[]) => vulns.map((v) => [v.id, v.score]);

Deno.test("requests: aliases merged, scored, sorted highest first, CVE ids reported", async () => {
  const { vulns } = await query("requests", null);
  deepStrictEqual(summary(vulns), [
    ["CVE-2023-32681", 6.1], // PYSEC-2023-74 (no vector) + GHSA-j8r2-6x86-q33q (6.1)
    ["CVE-2024-35195", 5.6], // PYSEC-2026-1873 + GHSA-9wx4-h78v-vm56
    ["CVE-2026-25645", 5.5],
    ["CVE-2024-47081", 5.3],
    ["CVE-2014-1829", null],
    ["CVE-2014-1830", null],
    ["CVE-2015-2296", null],
    ["CVE-2018-18074", null],
  ]);
  const merged = vulns[0];
  deepStrictEqual(merged.aliases, ["CVE-2023-32681", "GHSA-j8r2-6x86-q33q", "PYSEC-2023-74"]);
  equal(merged.affected.length, 2); // one `affected` entry from each record
  ok(isAffected(merged.affected, "2.30.0"));
  ok(!isAffected(merged.affected, "2.31.0"));
});

Deno.test("a versioned query returns only the vulnerabilities affecting that version", async () => {
  const { vulns } = await query("requests", "2.31.0");
  deepStrictEqual(summary(vulns), [
    ["CVE-2024-35195", 5.6],
    ["CVE-2026-25645", 5.5],
    ["CVE-2024-47081", 5.3],
  ]);
});

Deno.test("withdrawn records are ignored", async () => {
  const { vulns } = await query("aiohttp", null);
  ok(vulns.length > 0);
  ok(!vulns.some((v) => v.aliases.includes("PYSEC-2022-43059")), "withdrawn PYSEC-2022-43059 kept");
  const django = await query("django", null);
  for (
    const id of [
      "PYSEC-2011-28",
      "PYSEC-2011-29",
      "PYSEC-2011-30",
      "PYSEC-2011-31",
      "PYSEC-2020-345",
    ]
  ) {
    ok(!django.vulns.some((v) => v.aliases.includes(id)), `withdrawn ${id} kept`);
  }
});

Deno.test("a merged vulnerability scores the highest of its records; V4 is preferred within a record", async () => {
  const { vulns } = await query("idna", null);
  const cve = vulns.find((v) => v.id === "CVE-2024-3651")!;
  deepStrictEqual(cve.aliases, ["CVE-2024-3651", "GHSA-jjg7-2v4v-x38h", "PYSEC-2024-60"]);
  // GHSA-jjg7-2v4v-x38h: V4 6.9 preferred over its V3 6.2; PYSEC-2024-60: V3 AV:N…A:H = 7.5.
  equal(cve.score, 7.5);
  const ghsaOnly = toVulnerabilities(
    [JSON.parse(
      await Deno.readTextFile(
        new URL("../../tests/fixtures/osv/vulns/GHSA-jjg7-2v4v-x38h.json", import.meta.url),
      ),
    )],
    "idna",
  );
  equal(ghsaOnly[0].score, 6.9);
});

Deno.test("package names match after PEP 503 normalisation (GHSA says Pillow)", async () => {
  const { vulns } = await query("PILLOW", null);
  const ghsa = vulns.find((v) => v.aliases.includes("GHSA-3f63-hfp8-52jq"));
  ok(ghsa, "GHSA-3f63-hfp8-52jq missing");
  ok(ghsa.affected.length >= 1);
});

Deno.test("next_page_token is followed until the last page", async () => {
  const { vulns, calls } = await query("requests", null, 3);
  equal(vulns.length, 8);
  equal(calls["osv.query"], 4); // 10 records, 3 a page
});

Deno.test("records without a CVE alias are reported by GHSA id, else by record id", () => {
  const affected = [{ package: { ecosystem: "PyPI", name: "x" }, ranges: [] }];
  const vulns = toVulnerabilities([
    { id: "PYSEC-1", aliases: ["GHSA-aaaa"], affected },
    { id: "GHSA-aaaa", aliases: [], affected, database_specific: { severity: "HIGH" } },
    { id: "PYSEC-2", aliases: [], affected },
    // Transitive: PYSEC-3 and PYSEC-4 share only an alias that is not in the answer.
    { id: "PYSEC-3", aliases: ["OSV-9"], affected },
    { id: "PYSEC-4", aliases: ["OSV-9"], affected, database_specific: { severity: "LOW" } },
  ], "x");
  deepStrictEqual(summary(vulns), [["GHSA-aaaa", 7], ["PYSEC-3", 2], ["PYSEC-2", null]]);
  deepStrictEqual(vulns[1].aliases, ["OSV-9", "PYSEC-3", "PYSEC-4"]);
});

Deno.test("a record answered alone is reported by its own id, never by a non-CVE alias (SPEC §16.3)", async () => {
  const read = async (id: string) =>
    osvRecordSchema.parse(JSON.parse(
      await Deno.readTextFile(
        new URL(`../../tests/fixtures/osv/vulns/${id}.json`, import.meta.url),
      ),
    ));
  // Real PYSEC-2023-74 (requests) lists CVE-2023-32681 and GHSA-j8r2-6x86-q33q. Dropping its
  // CVE alias gives the shape of a PYSEC record whose only alias is a GHSA id, answered
  // without the GHSA record: it used to be reported as the GHSA id.
  const pysec = await read("PYSEC-2023-74");
  const onlyGhsa = {
    ...pysec,
    aliases: (pysec.aliases ?? []).filter((a) => a.startsWith("GHSA-")),
  };
  deepStrictEqual(onlyGhsa.aliases, ["GHSA-j8r2-6x86-q33q"]);
  deepStrictEqual(toVulnerabilities([onlyGhsa], "requests").map((v) => v.id), ["PYSEC-2023-74"]);
  // Unchanged: with its CVE alias the CVE is reported, and real PYSEC-2023-175 (no alias) by its id.
  deepStrictEqual(toVulnerabilities([pysec], "requests").map((v) => v.id), ["CVE-2023-32681"]);
  deepStrictEqual(
    toVulnerabilities([await read("PYSEC-2023-175")], "pillow").map((v) => v.id),
    ["PYSEC-2023-175"],
  );
});

Deno.test("OSV failures yield unavailable within the time-out and log a warning", (t) => {
  const timeoutMs = 400;
  return forEachUpstreamFault(t, "osv", async ({ url, log, lines }) => {
    const osv = createOsvSource(settingsFor(url, timeoutMs), log);
    const started = performance.now();
    const facts = await osv.query("requests", null);
    const elapsed = performance.now() - started;
    equal(facts.status, "unavailable");
    ok(elapsed < timeoutMs + 500, `took ${elapsed} ms`);
    const warn = lines.map((l) => JSON.parse(l)).find((l) => l.level === "warn");
    ok(warn && warn.package === "requests" && typeof warn.detail === "string");
  });
});

Deno.test("one deadline covers every page: a slow paginated answer is unavailable in time", async () => {
  const upstream = await startFakeUpstream({ pageSize: 1 });
  upstream.osv.latencyMs = 100;
  try {
    const started = performance.now();
    const facts = await createOsvSource(settingsFor(upstream.url, 350), silentLogger).query(
      "requests",
      null,
    );
    equal(facts.status, "unavailable");
    ok(performance.now() - started < 350 + 500);
  } finally {
    await upstream.close();
  }
});

Deno.test("malicious-package advisories are flagged and never scored; withdrawn ones dropped", async () => {
  const dir = new URL("../../tests/fixtures/threats/mal/", import.meta.url);
  const read = async (id: string) =>
    osvRecordSchema.parse(JSON.parse(await Deno.readTextFile(new URL(`${id}.json`, dir))));
  const [mal] = toVulnerabilities([await read("MAL-2022-7439")], "requestts");
  equal(mal.malicious, true);
  equal(mal.score, null);
  equal(mal.id, "MAL-2022-7439");
  equal(toVulnerabilities([await read("MAL-2024-10183")], "urlcon-").length, 0);
  // The origins entry alone marks a record malicious, whatever its id.
  const origins = { ...(await read("MAL-2025-975")), id: "GHSA-xxxx-yyyy-zzzz" };
  ok(isMaliciousRecord(origins));
  ok(!isMaliciousRecord({ id: "PYSEC-2023-74" }));
});
