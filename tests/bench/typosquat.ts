/**
 * Typosquat benchmark (issue 26 point 9): the look-alike check over the full
 * shipped popular-project list (15,000 names) must cost at most 20 µs per
 * name, which only a precomputed index (`src/core/popular_index.ts`, a
 * deletion neighbourhood) can give; a scan of the list costs milliseconds.
 * Checks three kinds of name: popular names (the common case), one-edit
 * look-alikes of them, and unrelated names. The budget is on CPU time
 * (`process.cpuUsage`, user + system), which a busy shared machine inflates
 * far less than wall time; both are printed. Exits 1 over the budget.
 *
 *   deno run -A tests/bench/typosquat.ts [--rounds N]
 *
 * @module
 */
import { cpuUsage } from "node:process";
import { createPopularIndex } from "../../src/core/popular_index.ts";
import { shippedPopularNames } from "../../src/lookups/popular.ts";

const BUDGET_US = 20;
const roundsFlag = Deno.args.indexOf("--rounds");
const ROUNDS = roundsFlag >= 0 ? Number(Deno.args[roundsFlag + 1]) : 3;

const names = shippedPopularNames();
const builtAt = performance.now();
const index = createPopularIndex(names);
const buildMs = performance.now() - builtAt;

/** Swaps two adjacent characters in the middle: a one-edit look-alike. */
const swapped = (n: string) => {
  const i = Math.max(0, Math.floor(n.length / 2) - 1);
  return n.slice(0, i) + n[i + 1] + n[i] + n.slice(i + 2);
};
const sets: Record<string, string[]> = {
  popular: [...names],
  "look-alikes": names.map(swapped),
  // Reversed popular names: the same lengths as real names, almost none popular or near one.
  unrelated: names.map((n) => [...n].reverse().join("")).filter((n) => !index.has(n)),
};

let over = false;
console.log(`index of ${index.size} names built in ${buildMs.toFixed(0)} ms`);
for (const [label, list] of Object.entries(sets)) {
  let found = 0;
  for (const n of list.slice(0, 500)) if (index.lookalike(n)) found++; // warm-up
  const start = performance.now();
  const cpu = cpuUsage();
  for (let r = 0; r < ROUNDS; r++) {
    found = 0;
    for (const n of list) if (index.lookalike(n)) found++;
  }
  const used = cpuUsage(cpu);
  const calls = ROUNDS * list.length;
  const us = (used.user + used.system) / calls;
  const wallUs = ((performance.now() - start) * 1000) / calls;
  over ||= us > BUDGET_US;
  console.log(
    `${label.padEnd(12)} ${us.toFixed(2).padStart(6)} µs CPU per name (wall ${
      wallUs.toFixed(2)
    }; ${list.length} names × ${ROUNDS}; ${found} flagged) — budget ${BUDGET_US} µs`,
  );
}
if (over) {
  console.error(`over the budget of ${BUDGET_US} µs per name`);
  Deno.exit(1);
}
