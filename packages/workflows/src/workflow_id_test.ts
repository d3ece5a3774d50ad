import assert from "node:assert/strict";
import { workflowId } from "./workflow_id.ts";

Deno.test("workflowId() follows the SPEC §15.17/§15.26 rule", async (t) => {
  const cases: [string, string][] = [
    ["Don't re-check!", "dont_re_check"],
    ["Don’t re-check!", "dont_re_check"],
    ["Check a package before adding it", "check_a_package_before_adding_it"],
    ["  --Leading and trailing--  ", "leading_and_trailing"],
    ["Café crème: v2.0", "caf_cr_me_v2_0"],
    ["UPPER case", "upper_case"],
    ["rock 'n' roll", "rock_n_roll"],
    ["a\u212Ab", "a_b"], // Kelvin sign lowercases to ASCII "k" but is not ASCII itself
  ];
  for (const [name, id] of cases) {
    await t.step(`${JSON.stringify(name)} → ${id}`, () => assert.equal(workflowId(name), id));
  }
});

Deno.test("workflowId() rejects a name without letters or digits", () => {
  assert.throws(() => workflowId("!!! ’'"), /Cannot derive a workflow ID from the name "!!! ’'"/);
});
