import { equal } from "node:assert/strict";
import { isRange, rangeBound } from "./resolve_range.ts";

Deno.test("isRange() and rangeBound() answer the same when asked again, past the memo's size", () => {
  const ranges = Array.from({ length: 1_200 }, (_, i) => `>=1.${i},<2`).concat([
    "<2",
    "~=1.4",
    "=>1",
  ]);
  const first = ranges.map((r) => [isRange(r), rangeBound(r)] as const);
  equal(first.at(-3)?.[1], "2");
  equal(first.at(-2)?.[1], "1.4");
  equal(first.at(-1)?.[0], false);
  for (const [i, r] of ranges.entries()) {
    equal(isRange(r), first[i][0], r);
    equal(rangeBound(r), first[i][1], r);
  }
  equal(rangeBound(">=1.7,<2"), "1.7");
});
