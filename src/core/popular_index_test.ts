import { deepStrictEqual, equal } from "node:assert/strict";
import { combineIndexes, createPopularIndex } from "./popular_index.ts";

const index = createPopularIndex([
  "requests",
  "python-dateutil",
  "pillow",
  "numpy",
  "boto3",
  "six",
  "pytest-mypy",
]);

Deno.test("lookalike() finds one edit, an affix or look-alike characters from a popular name", async (t) => {
  const cases: Array<[string, string | null, string?]> = [
    ["reqeusts", "requests", "edit"], // adjacent swap
    ["requets", "requests", "edit"], // delete
    ["requestts", "requests", "edit"], // insert
    ["requezts", "requests", "edit"], // substitute
    ["requests2", "requests", "edit"], // trailing digit
    ["python-requests", "requests", "affix"],
    ["requests-py", "requests", "affix"],
    ["dateutil", "python-dateutil", "affix"],
    ["pi11ow", "pillow", "homoglyph"],
    ["nurnpy", "numpy", "homoglyph"],
    ["b0to3", "boto3", "edit"],
    ["requests", null],
    ["six", null],
    ["sax", null], // popular names shorter than 4 are matched only exactly or by affix
    ["flask", null],
  ];
  for (const [name, similar, how] of cases) {
    await t.step(name, () => {
      const found = index.lookalike(name);
      deepStrictEqual(found, similar === null ? null : { similar_to: similar, how });
    });
  }
});

Deno.test("nearest() puts the look-alike first, then the closest popular names", () => {
  deepStrictEqual(index.nearest("python-requests", 3)[0], "requests");
  deepStrictEqual(index.nearest("nunpy", 3), ["numpy"]);
  deepStrictEqual(index.nearest("completely-unrelated-name", 3), []);
});

Deno.test("combineIndexes() treats a name popular in either as popular", () => {
  const both = combineIndexes(createPopularIndex(["acme-billing"]), index);
  equal(both.lookalike("acme-biling")?.similar_to, "acme-billing");
  equal(both.lookalike("acme-billing"), null);
  equal(both.lookalike("reqeusts")?.similar_to, "requests");
  equal(both.has("requests"), true);
});
