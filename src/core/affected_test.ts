import { equal, ok } from "node:assert/strict";
import { isAffected } from "./affected.ts";
import type { AffectedVersions } from "./types.ts";

const range = (...events: AffectedVersions["ranges"][number]["events"]): AffectedVersions[] => [
  { versions: [], ranges: [{ events }] },
];

Deno.test("isAffected() follows introduced, fixed, last_affected and limit events", async (t) => {
  const table: Array<[string, AffectedVersions[], string, boolean]> = [
    ["from 0, fixed excluded", range({ introduced: "0" }, { fixed: "2.0" }), "1.9.9", true],
    ["fixed version itself", range({ introduced: "0" }, { fixed: "2.0" }), "2.0", false],
    ["before introduced", range({ introduced: "1.0" }, { fixed: "2.0" }), "0.9", false],
    ["last_affected included", range({ introduced: "1.0" }, { last_affected: "1.5" }), "1.5", true],
    ["after last_affected", range({ introduced: "1.0" }, { last_affected: "1.5" }), "1.5.1", false],
    ["open range", range({ introduced: "1.0" }), "99", true],
    ["pre-release before fixed", range({ introduced: "0" }, { fixed: "2.0" }), "2.0rc1", true],
    ["limit", range({ introduced: "0" }, { limit: "3.0" }), "3.0", false],
    [
      "two spans, in the gap",
      range({ introduced: "1.0" }, { fixed: "1.2" }, { introduced: "2.0" }, { fixed: "2.2" }),
      "1.5",
      false,
    ],
    [
      "two spans, in the second",
      range({ introduced: "1.0" }, { fixed: "1.2" }, { introduced: "2.0" }, { fixed: "2.2" }),
      "2.1",
      true,
    ],
    ["explicit versions list", [{ versions: ["0.5"], ranges: [] }], "0.5", true],
  ];
  for (const [name, affected, version, expected] of table) {
    await t.step(name, () => equal(isAffected(affected, version), expected));
  }
});

Deno.test("isAffected() agrees with every version OSV enumerates for a range in the fixtures", async () => {
  // PYSEC records list the versions their ECOSYSTEM ranges cover; each must be inside the ranges.
  const dir = new URL("../../tests/fixtures/osv/vulns/", import.meta.url);
  let checked = 0;
  for await (const entry of Deno.readDir(dir)) {
    const record = JSON.parse(await Deno.readTextFile(new URL(entry.name, dir)));
    for (const affected of record.affected ?? []) {
      const ranges = (affected.ranges ?? [])
        .filter((r: { type: string }) => r.type === "ECOSYSTEM")
        .map((r: AffectedVersions["ranges"][number]) => ({ events: r.events }));
      if (!affected.versions?.length || ranges.length === 0) continue;
      for (const version of affected.versions as string[]) {
        checked++;
        ok(isAffected([{ versions: [], ranges }], version), `${record.id} ${version}`);
      }
    }
  }
  ok(checked > 30_000, `only ${checked} versions checked`);
});
