import { deepStrictEqual } from "node:assert/strict";
import { bucketOf, bucketsIn, planWindow } from "./rollup_plan.ts";

const h = 3_600_000, d = 24 * h;
const at = (iso: string) => Date.parse(iso);

Deno.test("planWindow() reads whole days, whole hours at the edges and the rest raw", async (t) => {
  const cases: Array<[string, number, number, number, ReturnType<typeof planWindow>]> = [
    [
      "a 30-day window ending at noon, complete up to 11:55",
      at("2026-10-24T12:00:00.000Z"),
      Infinity,
      at("2026-11-23T11:55:00.000Z"),
      {
        buckets: [
          {
            grain: "hour",
            span: { from: at("2026-10-24T12:00:00.000Z"), to: at("2026-10-25T00:00:00.000Z") },
          },
          {
            grain: "day",
            span: { from: at("2026-10-25T00:00:00.000Z"), to: at("2026-11-23T00:00:00.000Z") },
          },
          {
            grain: "hour",
            span: { from: at("2026-11-23T00:00:00.000Z"), to: at("2026-11-23T11:00:00.000Z") },
          },
        ],
        raw: [{ from: at("2026-11-23T11:00:00.000Z"), to: Infinity }],
      },
    ],
    [
      "an unaligned start and an end before the horizon",
      10 * d + 90 * 60_000,
      12 * d + 30 * 60_000,
      20 * d,
      {
        buckets: [
          { grain: "hour", span: { from: 10 * d + 2 * h, to: 11 * d } },
          { grain: "day", span: { from: 11 * d, to: 12 * d } },
        ],
        raw: [{ from: 10 * d + 90 * 60_000, to: 10 * d + 2 * h }, {
          from: 12 * d,
          to: 12 * d + 30 * 60_000,
        }],
      },
    ],
    ["less than an hour: all raw", 5 * h + 1, 5 * h + 2, 9 * h, {
      buckets: [],
      raw: [{ from: 5 * h + 1, to: 5 * h + 2 }],
    }],
    ["nothing complete yet: all raw", 0, Infinity, -1, {
      buckets: [],
      raw: [{ from: 0, to: Infinity }],
    }],
    ["hours only, within one day", 3 * h, 7 * h + 5, 8 * h, {
      buckets: [{ grain: "hour", span: { from: 3 * h, to: 7 * h } }],
      raw: [{ from: 7 * h, to: 7 * h + 5 }],
    }],
  ];
  for (const [name, from, to, complete, expected] of cases) {
    await t.step(
      name,
      () => deepStrictEqual(planWindow(from, to, complete, ["day", "hour"]), expected),
    );
  }
});

Deno.test("planWindow() reads whole weeks first when its grains include them", () => {
  // Epoch weeks start on Thursdays: 2026-10-29 and 2026-11-19 are Thursdays.
  const plan = planWindow(
    at("2026-10-24T12:00:00.000Z"),
    Infinity,
    at("2026-11-23T11:55:00.000Z"),
  );
  deepStrictEqual(plan.buckets.map((b) => [b.grain, new Date(b.span.from).toISOString()]), [
    ["hour", "2026-10-24T12:00:00.000Z"],
    ["day", "2026-10-25T00:00:00.000Z"],
    ["week", "2026-10-29T00:00:00.000Z"],
    ["day", "2026-11-19T00:00:00.000Z"],
    ["hour", "2026-11-23T00:00:00.000Z"],
  ]);
  deepStrictEqual(plan.raw, [{ from: at("2026-11-23T11:00:00.000Z"), to: Infinity }]);
});

Deno.test("bucketOf() and bucketsIn() name buckets by their UTC start", () => {
  deepStrictEqual(bucketOf(at("2026-11-23T11:59:59.999Z"), "day"), "2026-11-23T00:00:00.000Z");
  deepStrictEqual(bucketOf(at("2026-11-23T11:59:59.999Z"), "hour"), "2026-11-23T11:00:00.000Z");
  deepStrictEqual(bucketsIn({ from: 22 * h, to: d + h }, "hour"), [
    "1970-01-01T22:00:00.000Z",
    "1970-01-01T23:00:00.000Z",
    "1970-01-02T00:00:00.000Z",
  ]);
});
