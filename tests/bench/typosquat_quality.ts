/**
 * Typosquat quality (follow-up of issues 26/27): how many real typosquats the look-alike check
 * catches and how many benign names it flags, over the shipped popular-project list.
 *
 * - threats: every malicious fixture that imitates a project (tests/fixtures/threats/mal/INDEX.tsv)
 *   and the typosquats the tests use (`reqeusts`, `requets`, …);
 * - benign: every package name of every lock file in tests/fixtures/lockfiles and every package the
 *   shell reader finds in the original (benign) lines of the gate corpus (tests/fixtures/gate).
 *
 * - the long tail: the real projects ranked 12,001–15,000 in the list, judged against an index of
 *   the first 12,000 (as if they were not popular): how often a real, unknown project sits one
 *   edit, an affix or look-alike characters from a target (a warning for an established project).
 *
 * Prints the counts and the names; exits 1 when a threat is missed or a benign name is flagged
 * (beyond the one known real project, `pytest-pypy`, which the established rule lets through).
 *
 *   deno run -A tests/bench/typosquat_quality.ts
 *
 * @module
 */
import { join } from "node:path";
import { loadLockFile } from "../../cli/policy/lockfiles/mod.ts";
import { readCommand } from "../../cli/policy/agents/shell.ts";
import { createPopularIndex } from "../../src/core/popular_index.ts";
import { shippedPopularNames } from "../../src/lookups/popular.ts";
import { normalizeName } from "../../src/core/names.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/** Typosquats the tests use, beside the malicious fixtures. */
const TEST_TYPOSQUATS = [
  "reqeusts",
  "requets",
  "requestts",
  "requezts",
  "requests2",
  "python-requests",
  "requests-py",
  "pi11ow",
  "nurnpy",
  "b0to3",
  "dateutil",
];

/** Benign names the check may flag: real projects it lists as a warning only (established). */
const KNOWN_WARNED = new Set(["pytest-pypy"]);

function threatNames(): string[] {
  const rows = Deno.readTextFileSync(join(FIXTURES, "threats/mal/INDEX.tsv")).trim().split(/\r?\n/);
  const mal = rows.slice(1).map((r) => r.split("\t")).filter((c) => c[3] && !c[5]).map((c) =>
    normalizeName(c[1])
  );
  return [...new Set([...mal, ...TEST_TYPOSQUATS])];
}

function lockNames(): string[] {
  const names = new Set<string>();
  const root = join(FIXTURES, "lockfiles");
  const ctx = { read: (p: string) => Deno.readTextFileSync(p), label: (p: string) => p, root };
  for (const entry of Deno.readDirSync(root)) {
    if (!entry.isDirectory) continue;
    for (const file of Deno.readDirSync(join(root, entry.name))) {
      try {
        const loaded = loadLockFile(join(root, entry.name, file.name), ctx);
        for (const e of loaded.entries) names.add(e.name);
      } catch {
        // a companion manifest or a file the readers do not take on its own
      }
    }
  }
  return [...names];
}

function corpusNames(): string[] {
  const lines = Deno.readTextFileSync(join(FIXTURES, "gate/install-lines.jsonl")).split("\n")
    .filter(Boolean).map((l) => JSON.parse(l) as { original: string });
  const names = new Set<string>();
  for (const line of lines) {
    for (const p of readCommand(line.original, "/nonexistent", () => null).packages) {
      names.add(p.name); // guessed repository names too (the gate judges them by registry rules only)
    }
  }
  return [...names];
}

const index = createPopularIndex(shippedPopularNames());
const threats = threatNames();
const benign = [...new Set([...lockNames(), ...corpusNames()])].filter((n) => !threats.includes(n));
const caught = threats.filter((n) => index.lookalike(n) !== null);
const missed = threats.filter((n) => index.lookalike(n) === null);
const flagged = benign.filter((n) => index.lookalike(n) !== null);
console.log(`threats: ${caught.length}/${threats.length} caught; missed: ${missed.join(", ")}`);
console.log(
  `benign: ${flagged.length}/${benign.length} flagged: ` +
    flagged.map((n) => `${n}~${index.lookalike(n)!.similar_to}`).join(", "),
);
const names = shippedPopularNames();
const head = createPopularIndex(names.slice(0, 12_000));
const tail = names.slice(12_000);
const near = tail.filter((n) => head.lookalike(n) !== null);
console.log(`long tail: ${near.length}/${tail.length} real projects flagged`);
const unexpected = flagged.filter((n) => !KNOWN_WARNED.has(n));
if (missed.length || unexpected.length) Deno.exitCode = 1;
