/**
 * The name sets the typosquat check is measured on (follow-up of issues 26/27), shared by
 * `tests/bench/typosquat_quality.ts` (prints) and `tests/integration/typosquat_quality_test.ts`
 * (asserts):
 *
 * - threats: every malicious fixture that imitates a project (tests/fixtures/threats/mal/INDEX.tsv,
 *   withdrawn records left out) and the typosquats the tests use (`reqeusts`, `requets`, …);
 * - benign: every package name of every lock file in tests/fixtures/lockfiles and every package the
 *   shell reader finds in the original (benign) lines of the gate corpus (tests/fixtures/gate),
 *   guessed repository names included;
 * - the long tail: the real projects ranked 12,001–15,000 in the shipped list, judged against an
 *   index of the first 12,000 (as if they were not popular): how often a real, unknown project sits
 *   near a target.
 *
 * @module
 */
import { join } from "node:path";
import { loadLockFile } from "../../cli/policy/lockfiles/mod.ts";
import { readCommand } from "../../cli/policy/agents/shell.ts";
import { createPopularIndex, type PopularIndex } from "../../src/core/popular_index.ts";
import { shippedPopularNames } from "../../src/lookups/popular.ts";
import { normalizeName } from "../../src/core/names.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/** Typosquats the tests use, beside the malicious fixtures. */
const TEST_TYPOSQUATS =
  "reqeusts requets requestts requezts requests2 python-requests requests-py pi11ow nurnpy b0to3 dateutil"
    .split(" ");

/** Names of the malicious fixtures that imitate a project, and the typosquats of the tests. */
export function threatNames(): string[] {
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
        for (const e of loadLockFile(join(root, entry.name, file.name), ctx).entries) {
          names.add(e.name);
        }
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
      names.add(p.name);
    }
  }
  return [...names];
}

/** What the look-alike check makes of the three sets. */
export interface TyposquatQuality {
  threats: string[];
  missed: string[];
  benign: string[];
  /** Benign names flagged, with the project each imitates. */
  flagged: Array<[string, string]>;
  tail: number;
  /** Long-tail projects flagged. */
  nearTail: number;
}

/** Measures `index` (default: the shipped list) on the three sets. */
export function measureTyposquats(
  index: PopularIndex = createPopularIndex(shippedPopularNames()),
): TyposquatQuality {
  const threats = threatNames();
  const benign = [...new Set([...lockNames(), ...corpusNames()])].filter((n) =>
    !threats.includes(n)
  );
  const names = shippedPopularNames();
  const head = createPopularIndex(names.slice(0, 12_000));
  const tail = names.slice(12_000);
  return {
    threats,
    missed: threats.filter((n) => index.lookalike(n) === null),
    benign,
    flagged: benign.flatMap((n) => {
      const found = index.lookalike(n);
      return found ? [[n, found.similar_to] as [string, string]] : [];
    }),
    tail: tail.length,
    nearTail: tail.filter((n) => head.lookalike(n) !== null).length,
  };
}
