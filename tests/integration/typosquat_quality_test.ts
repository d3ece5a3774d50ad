/**
 * The typosquat check on real names (follow-up of issues 26/27): the malicious fixtures' and the
 * tests' typosquats are caught, the benign names of the lock files and the gate corpus are not,
 * and few real long-tail projects sit near a target (docs/decisions.md has the numbers).
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { measureTyposquats } from "../helpers/typosquat_sets.ts";

Deno.test("the look-alike check catches the real typosquats and spares the benign names", () => {
  const q = measureTyposquats();
  ok(q.threats.length >= 30 && q.benign.length >= 400, `${q.threats.length}/${q.benign.length}`);
  // Two edits (`botoceor`, `tensofliw`, `reqzest`) or a suffix that is no affix (`requestspro`):
  // each is a MAL- record, stopped as DENIAL_MALICIOUS.
  deepStrictEqual(q.missed.sort(), ["botoceor", "requestspro", "reqzest", "tensofliw"]);
  // The one real project one edit from a popular one; established, so only warned.
  deepStrictEqual(q.flagged, [["pytest-pypy", "pytest-mypy"]]);
  ok(q.nearTail <= q.tail * 0.05, `${q.nearTail} of ${q.tail} long-tail projects flagged`);
});
