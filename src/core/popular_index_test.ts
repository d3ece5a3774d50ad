import { deepStrictEqual, equal } from "node:assert/strict";
import {
  combineIndexes,
  createPopularIndex,
  type Lookalike,
  MIN_EDIT_CANDIDATE,
  TARGET_RANK,
} from "./popular_index.ts";

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
  // What lookalike() answers: the popular name imitated and how, or null.
  const cases: Array<[string, Lookalike | null]> = [
    ["reqeusts", { similar_to: "requests", how: "edit" }], // adjacent swap
    ["requets", { similar_to: "requests", how: "edit" }], // delete
    ["requestts", { similar_to: "requests", how: "edit" }], // insert
    ["requezts", { similar_to: "requests", how: "edit" }], // substitute
    ["requests2", { similar_to: "requests", how: "edit" }], // trailing digit
    ["python-requests", { similar_to: "requests", how: "affix" }],
    ["requests-py", { similar_to: "requests", how: "affix" }],
    ["dateutil", { similar_to: "python-dateutil", how: "affix" }],
    ["pi11ow", { similar_to: "pillow", how: "homoglyph" }],
    ["nurnpy", { similar_to: "numpy", how: "homoglyph" }],
    ["b0to3", { similar_to: "boto3", how: "edit" }],
    ["requests", null],
    ["six", null],
    ["sax", null], // popular names shorter than 4 are matched only exactly or by affix
    ["flask", null],
  ];
  for (const [name, expected] of cases) {
    await t.step(name, () => deepStrictEqual(index.lookalike(name), expected));
  }
});

Deno.test("lookalike() takes no one-edit match of a short name, and affixes still apply", () => {
  const short = createPopularIndex(["kcli", "dead", "numpy", "pip"]);
  equal(MIN_EDIT_CANDIDATE, 5);
  equal(short.lookalike("cli"), null); // `cli` is one edit from `kcli`: a word, not a typo
  equal(short.lookalike("head"), null); // one edit from `dead`
  equal(short.lookalike("nunpy")?.similar_to, "numpy"); // five characters: an edit counts
  equal(short.lookalike("python-pip")?.similar_to, "pip"); // affixes keep their own limits
});

Deno.test("lookalike() imitates only the most popular names; the whole list stays popular", () => {
  const filler = Array.from({ length: TARGET_RANK }, (_, i) => `filler-project-${i}`);
  const deep = createPopularIndex([...filler, "requests", "python-dateutil"]);
  equal(deep.lookalike("reqeusts"), null); // `requests` ranks below the cut-off here
  equal(deep.lookalike("dateutil"), null);
  equal(deep.has("requests"), true);
  equal(deep.lookalike("requests"), null);
  equal(deep.lookalike("filler-project-7x")?.similar_to, "filler-project-7");
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

/** The rule read literally: every target scanned, every affixed form built (no tables). */
function scanLookalike(names: string[], name: string): Lookalike | null {
  if (names.includes(name)) return null;
  const targets = names.slice(0, TARGET_RANK);
  const rank = (n: string) => targets.indexOf(n);
  const edits = (a: string, b: string) => {
    if (a === b || Math.abs(a.length - b.length) > 1) return false;
    const swaps = [...a].some((_, i) =>
      a.slice(0, i) + (a[i + 1] ?? "") + a[i] + a.slice(i + 2) === b && a.length > i + 1
    );
    const cut = (s: string, i: number) => s.slice(0, i) + s.slice(i + 1);
    const subs = a.length === b.length && [...a].some((_, i) => cut(a, i) === cut(b, i));
    const dels = [...a].some((_, i) => cut(a, i) === b) || [...b].some((_, i) => cut(b, i) === a);
    return swaps || subs || dels;
  };
  const edit = name.length >= MIN_EDIT_CANDIDATE &&
    targets.find((t) => t.length >= 4 && edits(name, t));
  if (edit) return { similar_to: edit, how: "edit" };
  const forms = ["python-", "py-"].flatMap((
    a,
  ) => [a + name, name.startsWith(a) && name.slice(a.length)])
    .concat(
      ["-python", "-py"].flatMap((a) => [name + a, name.endsWith(a) && name.slice(0, -a.length)]),
    );
  const affix =
    forms.filter((f): f is string => !!f && rank(f) >= 0).sort((a, b) => rank(a) - rank(b))[0];
  if (affix) return { similar_to: affix, how: "affix" };
  const skeleton = (s: string) => s.replaceAll("rn", "m").replaceAll("0", "o").replaceAll("1", "l");
  const glyph = targets.find((t) => skeleton(t) === skeleton(name));
  return glyph && glyph !== name ? { similar_to: glyph, how: "homoglyph" } : null;
}

Deno.test("lookalike() answers as a scan of every popular name does (tables and early exits)", () => {
  const words = [
    "requests",
    "dateutil",
    "numpy",
    "boto",
    "flask",
    "click",
    "rich",
    "attrs",
    "yaml",
  ];
  // Every other word is popular only with its affixes: asking for the bare word finds them.
  const names = [
    ...new Set(words.flatMap((w, i) => [
      ...(i % 2 ? [] : [w, `${w}${i}`]),
      ...[`python-${w}`, `py-${w}`, `${w}-py`, `${w}-python`, `${w}-extra-long-name-${i}`],
    ])),
  ].reverse();
  const asked = [...words, ...names].flatMap((n) => [
    n,
    n.slice(1),
    n + "s",
    n.replace("e", "3"),
    `py-${n}`,
    n.replace(/^python-|-py$/, ""),
    n.replaceAll("l", "1"),
    n.slice(0, 2) + n[3] + n[2] + n.slice(4),
  ]).concat(Array.from({ length: 50 }, (_, i) => `bench-package-${i}`));
  const fast = createPopularIndex(names);
  for (const name of asked) deepStrictEqual(fast.lookalike(name), scanLookalike(names, name), name);
});
