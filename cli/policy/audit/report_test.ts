import assert from "node:assert/strict";
import { auditedEntry, evaluation, loadedFile } from "./_rows.ts";
import { auditExitCode, buildReport, distinctQueries, queryOf } from "./report.ts";

Deno.test("queries: pins as is, ranges with the name (the server judges them), sources by name, local paths not at all", () => {
  assert.deepEqual(queryOf(auditedEntry({ name: "a", version: "1.0", pinned: true })), {
    package: "a",
    version: "1.0",
  });
  assert.deepEqual(queryOf(auditedEntry({ name: "b", specifier: ">=2.1,<3" })), {
    package: "b>=2.1,<3",
    version: null,
  });
  // Poetry's caret is no PEP 440 range: its lower bound, as before.
  assert.deepEqual(queryOf(auditedEntry({ name: "p", specifier: "^1.2" })), {
    package: "p",
    version: "1.2",
  });
  assert.deepEqual(queryOf(auditedEntry({ name: "c", source: "git+https://x/c.git" })), {
    package: "c",
    version: null,
  });
  assert.deepEqual(queryOf(auditedEntry({ name: "d", version: "not-pep440!" })), {
    package: "d",
    version: null,
  });
  assert.equal(queryOf(auditedEntry({ name: "e", source: "path ./e", local: true })), null);
  assert.equal(queryOf(auditedEntry({ name: "-bad-" })), null);
});

Deno.test("queries are deduplicated; two versions of one name are both asked", () => {
  const entries = [
    auditedEntry({ name: "kombu", line: 1 }),
    auditedEntry({ name: "kombu", line: 2 }),
    auditedEntry({ name: "keyring", version: "18.0.1", pinned: true }),
    auditedEntry({ name: "keyring", version: "20.0.1", pinned: true }),
    auditedEntry({ name: "keyring", version: "20.0.1", pinned: true, file: "other.txt" }),
  ];
  assert.deepEqual(distinctQueries(entries), [
    { package: "kombu", version: null },
    { package: "keyring", version: "18.0.1" },
    { package: "keyring", version: "20.0.1" },
  ]);
});

Deno.test("the report joins evaluations back to every entry and counts them", () => {
  const entries = [
    auditedEntry({ name: "requests", version: "2.31.0", pinned: true, line: 1 }),
    auditedEntry({ name: "pycrypto", version: "2.6.1", pinned: true, line: 2, direct: false }),
    auditedEntry({ name: "left-pad", specifier: ">=1.0", line: 3 }),
    auditedEntry({ name: "local", source: "path ./local", local: true, line: 4 }),
    auditedEntry({ name: "requests", version: "2.31.0", pinned: true, file: "b.txt", line: 9 }),
  ];
  const queries = distinctQueries(entries);
  const report = buildReport([loadedFile(entries)], entries, queries, [
    evaluation("requests", "ALLOWED", { data: { osv: "ok" } } as never),
    evaluation("pycrypto", "DENIED", {
      denial_category: "DENIAL_BANNED",
      replacement: "cryptography",
      cves: [{ id: "CVE-2013-7459" }],
    }),
    { ...evaluation("left-pad", "PROVISIONALLY_ALLOWED"), version: "1.3.0" },
  ]);
  assert.deepEqual(
    report.results.map((r) => [
      r.package,
      r.version,
      r.evaluated_version,
      r.verdict,
      r.file,
      r.line,
      r.direct,
    ]),
    [
      ["requests", "2.31.0", "2.31.0", "ALLOWED", "requirements.txt", 1, true],
      ["pycrypto", "2.6.1", "2.6.1", "DENIED", "requirements.txt", 2, false],
      ["left-pad", null, "1.3.0", "PROVISIONALLY_ALLOWED", "requirements.txt", 3, true],
      ["local", null, null, null, "requirements.txt", 4, true],
      ["requests", "2.31.0", "2.31.0", "ALLOWED", "b.txt", 9, true],
    ],
  );
  assert.deepEqual(report.results[0].data, { osv: "ok" });
  assert.equal(report.results[2].data, null);
  assert.deepEqual(report.results[1].cves, ["CVE-2013-7459"]);
  assert.equal(report.results[1].replacement, "cryptography");
  assert.match(report.results[3].reason, /^not evaluated: local source/);
  assert.deepEqual(report.summary, {
    allowed: 2,
    provisional: 1,
    denied: 1,
    unpinned: 2,
    transport_errors: 0,
  });
  assert.deepEqual(report.files, [{
    file: "requirements.txt",
    format: "requirements",
    manifest: null,
    packages: 5,
  }]);
});

Deno.test("exit codes: denied 2; provisional or transport errors 1 unless --fail-on denied", () => {
  const summary = { allowed: 1, provisional: 0, denied: 0, unpinned: 0, transport_errors: 0 };
  assert.equal(auditExitCode(summary, "provisional"), 0);
  assert.equal(auditExitCode({ ...summary, provisional: 1 }, "provisional"), 1);
  assert.equal(auditExitCode({ ...summary, transport_errors: 1 }, "provisional"), 1);
  assert.equal(auditExitCode({ ...summary, provisional: 1, transport_errors: 1 }, "denied"), 0);
  assert.equal(auditExitCode({ ...summary, denied: 1, provisional: 1 }, "denied"), 2);
  assert.equal(auditExitCode({ ...summary, denied: 1 }, "provisional"), 2);
});
