import assert from "node:assert/strict";
import { DENIAL_CATEGORIES } from "../../../src/api/enums.ts";
import { sarifValidator } from "../../../tests/helpers/sarif.ts";
import { auditedEntry, evaluation, loadedFile } from "./_rows.ts";
import { buildReport, distinctQueries } from "./report.ts";
import { PROVISIONAL_RULE, renderSarif } from "./sarif.ts";
import { renderMarkdown, renderTable } from "./text.ts";

function sampleReport() {
  const entries = [
    auditedEntry({ name: "requests", version: "2.31.0", pinned: true, line: 1 }),
    auditedEntry({
      name: "pycrypto",
      version: "2.6.1",
      pinned: true,
      line: 7,
      file: "req s/a.txt",
    }),
    auditedEntry({ name: "pyyaml", version: "5.0", pinned: true, line: 3, direct: false }),
    auditedEntry({ name: "left-pad", specifier: ">=1.0", line: 4 }),
    auditedEntry({ name: "odd|name", source: "path ./x", local: true, line: 5 }),
  ];
  return buildReport([loadedFile(entries)], entries, distinctQueries(entries), [
    evaluation("requests", "ALLOWED"),
    evaluation("pycrypto", "DENIED", {
      denial_category: "DENIAL_BANNED",
      replacement: "cryptography",
      reason: "pycrypto is banned | unmaintained",
    }),
    evaluation("pyyaml", "DENIED", {
      denial_category: "DENIAL_CVE",
      cves: [{ id: "CVE-2020-14343" }],
    }),
    evaluation("left-pad", "PROVISIONALLY_ALLOWED"),
  ]);
}

Deno.test("SARIF: valid against the official 2.1.0 schema; one rule per denial category", () => {
  const sarif = renderSarif(sampleReport(), "1.2.3") as {
    runs: Array<{
      tool: { driver: { rules: Array<{ id: string }> } };
      results: Array<Record<string, unknown>>;
    }>;
  };
  assert.deepEqual(sarifValidator()(sarif), []);
  const [run] = sarif.runs;
  assert.deepEqual(run.tool.driver.rules.map((r) => r.id), [
    ...DENIAL_CATEGORIES,
    PROVISIONAL_RULE,
  ]);
  assert.deepEqual(
    run.results.map((r) => {
      const loc = (r.locations as Array<Record<string, Record<string, Record<string, unknown>>>>)[0]
        .physicalLocation;
      return [r.ruleId, r.ruleIndex, r.level, loc.artifactLocation.uri, loc.region.startLine];
    }),
    [
      ["DENIAL_BANNED", 0, "error", "req%20s/a.txt", 7],
      ["DENIAL_CVE", DENIAL_CATEGORIES.indexOf("DENIAL_CVE"), "error", "requirements.txt", 3],
      [PROVISIONAL_RULE, DENIAL_CATEGORIES.length, "warning", "requirements.txt", 4],
    ],
  );
  assert.match(
    (run.results[1].message as { text: string }).text,
    /^pyyaml==5\.0 is DENIED: .*CVEs: CVE-2020-14343\.$/,
  );
});

Deno.test("SARIF of a clean audit is valid and has no results", () => {
  const entries = [auditedEntry({ name: "requests", version: "2.31.0", pinned: true })];
  const report = buildReport([loadedFile(entries)], entries, distinctQueries(entries), [
    evaluation("requests", "ALLOWED"),
  ]);
  const sarif = renderSarif(report, "0.1.0") as { runs: Array<{ results: unknown[] }> };
  assert.deepEqual(sarifValidator()(sarif), []);
  assert.deepEqual(sarif.runs[0].results, []);
  assert.notDeepEqual(sarifValidator()({ ...sarif, version: "2.0.0" }), []);
});

Deno.test("Markdown: summary, then a table of what is not plainly allowed, denied first", () => {
  const md = renderMarkdown(sampleReport());
  const lines = md.trimEnd().split("\n");
  assert.equal(lines[0], "### ❌ policyd dependency audit");
  assert.equal(
    lines[2],
    "5 packages in requirements.txt: 1 allowed, 1 provisional, 2 denied, 2 unpinned.",
  );
  assert.equal(lines[4], "| Verdict | Package | Version | Direct | Location | Detail |");
  const rows = lines.slice(6);
  assert.deepEqual(rows.map((r) => r.split(" | ")[0]), [
    "| DENIED",
    "| DENIED",
    "| PROVISIONALLY_ALLOWED",
    "| NOT EVALUATED",
  ]);
  assert.match(rows[0], /pycrypto is banned \\\| unmaintained; use cryptography instead \|$/);
  assert.match(rows[3], /`odd\\\|name`/);
});

Deno.test("table: one line per package and a summary line", () => {
  const lines = renderTable(sampleReport()).trimEnd().split("\n");
  assert.equal(lines.length, 7);
  assert.match(lines[0], /^VERDICT +PACKAGE +DIRECT +LOCATION +DETAIL$/);
  assert.match(lines[2], /^DENIED +pycrypto==2\.6\.1 +direct +req s\/a\.txt:7 +pycrypto is banned/);
  assert.match(
    lines[4],
    /^PROVISIONALLY_ALLOWED +left-pad \(>=1\.0\) +direct +requirements\.txt:4/,
  );
  assert.equal(
    lines[6],
    "5 packages in requirements.txt: 1 allowed, 1 provisional, 2 denied, 2 unpinned",
  );
});
