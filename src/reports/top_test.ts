import { deepStrictEqual } from "node:assert/strict";
import { topBy } from "./top.ts";

Deno.test("topBy(): highest count first, ties by name, at most limit, input untouched", () => {
  const rows = [
    { name: "b", n: 2 },
    { name: "a", n: 2 },
    { name: "c", n: 5 },
    { name: "d", n: 0 },
  ];
  const names = (limit: number) => topBy(rows, limit, (r) => r.n, (r) => r.name).map((r) => r.name);
  deepStrictEqual(names(10), ["c", "a", "b", "d"]);
  deepStrictEqual(names(2), ["c", "a"]);
  deepStrictEqual(names(0), []);
  deepStrictEqual(rows.map((r) => r.name), ["b", "a", "c", "d"], "the input keeps its order");
  deepStrictEqual(topBy(new Set([3, 1, 2]), 2, (n) => n, String), [3, 2], "any iterable");
});
