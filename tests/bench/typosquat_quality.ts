/**
 * Typosquat quality (follow-up of issues 26/27): how many real typosquats the look-alike check
 * catches and how many benign names it flags, over the shipped popular-project list. The sets are
 * described in tests/helpers/typosquat_sets.ts; tests/integration/typosquat_quality_test.ts
 * asserts the same numbers.
 *
 *   deno run -A tests/bench/typosquat_quality.ts
 *
 * @module
 */
import { measureTyposquats } from "../helpers/typosquat_sets.ts";

const q = measureTyposquats();
const caught = q.threats.length - q.missed.length;
console.log(`threats: ${caught}/${q.threats.length} caught; missed: ${q.missed.join(", ")}`);
console.log(
  `benign: ${q.flagged.length}/${q.benign.length} flagged: ` +
    q.flagged.map(([n, like]) => `${n} (as ${like})`).join(", "),
);
console.log(`long tail: ${q.nearTail}/${q.tail} real projects flagged`);
