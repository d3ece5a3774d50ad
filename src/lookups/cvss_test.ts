import { equal } from "node:assert/strict";
import { baseScore, recordScore } from "./cvss.ts";

// Expected values computed by hand with the CVSS v3.1 specification's base
// equations (section 7.1: ISS, Impact, Exploitability, Roundup) and the v2
// guide's equations; the v4.0 values are the FIRST calculator's results that
// three independent libraries agree on (research notes §2).
const VECTORS: Array<[string, string, number]> = [
  // GHSA-j8r2-6x86-q33q / CVE-2023-32681 (requests Proxy-Authorization leak):
  // ISS 0.56, scope changed: 7.52·0.531 − 3.25·0.54^15 = 3.993, expl 8.22·.85·.44·.85·.62 = 1.620,
  // roundup(1.08·5.613) = 6.1.
  ["CVE-2023-32681", "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:H/I:N/A:N", 6.1],
  // GHSA-9wx4-h78v-vm56 / CVE-2024-35195 (requests verify=False session):
  // ISS 0.8064, impact 5.177, expl 8.22·.55·.44·.27·.62 = 0.333 → 5.6.
  ["CVE-2024-35195", "CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:H/I:H/A:N", 5.6],
  // PYSEC-2026-1872 / CVE-2024-47081 (requests .netrc leak): impact 3.595, expl 1.620 → 5.3.
  ["CVE-2024-47081", "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:N/A:N", 5.3],
  // PYSEC-2026-2275 / CVE-2026-25645 (requests): impact 3.595, expl 1.835 → 5.5.
  ["CVE-2026-25645", "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:N", 5.5],
  // GHSA-jjg7-2v4v-x38h / CVE-2024-3651 (idna encode DoS), its V3 vector:
  // impact 3.595, expl 8.22·.55·.77·.85·.85 = 2.515 → 6.2.
  ["CVE-2024-3651 (v3)", "CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", 6.2],
  // All-high network vector: impact 6.42·.9148 = 5.873, expl 3.887 → roundup(9.760) = 9.8.
  ["v3.1 critical", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8],
  // v3.0 uses the same base equations: impact 6.42·.8064 = 5.177, expl 3.887 → 9.1.
  ["v3.0", "CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H", 9.1],
  // v2: impact 10.41·(1−.725³) = 6.443, expl 20·1·.71·.704 = 9.997, f=1.176 → 7.5.
  ["v2", "AV:N/AC:L/Au:N/C:P/I:P/A:P", 7.5],
  // v4.0 FIRST calculator examples.
  ["v4.0 critical", "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", 9.3],
  ["v4.0 medium", "CVSS:4.0/AV:N/AC:L/AT:N/PR:H/UI:N/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N", 5.1],
  ["v4.0 adjacent", "CVSS:4.0/AV:A/AC:H/AT:P/PR:L/UI:P/VC:H/VI:H/VA:H/SC:L/SI:L/SA:L", 5.4],
];

Deno.test("baseScore() equals the base score each vector defines", async (t) => {
  for (const [name, vector, expected] of VECTORS) {
    await t.step(name, () => equal(baseScore(vector), expected));
  }
});

Deno.test("baseScore() ignores CVSS 4.0 threat metrics (CVSS-B, not CVSS-BT)", () => {
  equal(
    baseScore("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U"),
    9.3,
  );
});

Deno.test("baseScore() ignores v3 temporal metrics", () => {
  equal(baseScore("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:U/RL:O"), 9.8);
});

Deno.test("baseScore() gives null for malformed or incomplete vectors", async (t) => {
  for (
    const vector of [
      "garbage",
      "",
      "CVSS:3.1/AV:N",
      "CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
      "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N",
      "AV:N/AC:L/Au:N/C:P",
    ]
  ) {
    await t.step(JSON.stringify(vector), () => equal(baseScore(vector), null));
  }
});

Deno.test("recordScore() prefers CVSS_V4 over V3 over V2 within a record", () => {
  const v2 = { type: "CVSS_V2", score: "AV:N/AC:L/Au:N/C:P/I:P/A:P" }; // 7.5
  const v3 = { type: "CVSS_V3", score: "CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H" }; // 6.2
  const v4 = {
    type: "CVSS_V4",
    score: "CVSS:4.0/AV:N/AC:L/AT:N/PR:H/UI:N/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N",
  }; // 5.1
  equal(recordScore([v2, v3, v4], undefined), 5.1);
  equal(recordScore([v2, v3], undefined), 6.2);
  equal(recordScore([v2], undefined), 7.5);
});

Deno.test("recordScore() takes the highest vector of the preferred type", () => {
  equal(
    recordScore([
      { type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:N/A:N" },
      { type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" },
    ], undefined),
    9.8,
  );
});

Deno.test("recordScore() falls back to a lower type when the preferred vector is unusable", () => {
  equal(
    recordScore([
      { type: "CVSS_V4", score: "CVSS:4.0/AV:N" },
      { type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:H/I:N/A:N" },
    ], "HIGH"),
    6.1,
  );
});

Deno.test("recordScore() maps the qualitative severity when there is no vector", async (t) => {
  const table: Array<[string, number | null]> = [
    ["CRITICAL", 9.0],
    ["HIGH", 7.0],
    ["MODERATE", 5.0],
    ["MEDIUM", 5.0],
    ["LOW", 2.0],
    ["low", 2.0],
    ["UNKNOWN", null],
  ];
  for (const [label, expected] of table) {
    await t.step(label, () => equal(recordScore([], label), expected));
  }
  equal(recordScore([], undefined), null);
  equal(recordScore([{ type: "Ubuntu", score: "high" }], undefined), null);
});
