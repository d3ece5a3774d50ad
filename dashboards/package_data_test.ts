import { equal, ok } from "node:assert/strict";
import type { AuditRow } from "../src/store/types.ts";
import { emptyDataSentence, tallyData } from "./package_data.ts";

const row = (status: string | null, verdict = "ALLOWED") =>
  ({
    verdict,
    data: status === null ? null : {
      vulnerabilities: { status, fetched_at: null },
      license: { status: "skipped", fetched_at: null },
    },
  }) as unknown as AuditRow;

Deno.test("the package page's empty vulnerability sentence follows the recorded data", () => {
  const unavailable = tallyData([row("unavailable"), row("unavailable")], "vulnerabilities");
  const text = emptyDataSentence(unavailable, "vulnerabilities");
  ok(text.includes("none of them was checked against OSV"), text);
  ok(text.includes("OSV was unavailable for 2"), text);
  ok(!text.includes("registry-listed packages are not looked up"), text);
  const mixed = tallyData(
    [row("fresh"), row("skipped"), row(null), row("fresh", "CVE_ALERT")],
    "vulnerabilities",
  );
  equal(
    emptyDataSentence(mixed, "vulnerabilities"),
    "No recorded evaluation listed a vulnerability. Of the 3 recent evaluations, 1 checked OSV, " +
      "1 did not look it up (the registry rule decided), 1 recorded no data status.",
  );
  ok(emptyDataSentence(tallyData([], "license"), "license").startsWith("No evaluation"));
  ok(emptyDataSentence(tallyData([row("fresh")], "license"), "license").includes("none of them"));
});
