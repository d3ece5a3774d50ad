import assert from "node:assert/strict";
import { mergeWorkflows } from "./document.ts";
import { parseJUnit } from "./junit.ts";
import type { Workflow } from "./types.ts";

function wf(file: string, test: string, note = ""): Workflow {
  return {
    id: `${test}${note}`.replace(/\W+/g, "_"),
    name: test + note,
    intent: "i",
    status: "Verified / Test-Gated",
    source: { file, test, index: 0 },
    steps: [],
    dataFlow: [],
  };
}

const REPORT = parseJUnit(`<testsuites>
  <testsuite name="./ran_test.ts">
    <testcase name="passed-now" classname="./ran_test.ts" line="1" col="1"></testcase>
    <testcase name="failed-now" classname="./ran_test.ts" line="2" col="1"><failure message="x"/></testcase>
    <testcase name="filtered" classname="./ran_test.ts" line="3" col="1"><skipped/></testcase>
    <testcase name="no-longer-workflow" classname="./ran_test.ts" line="4" col="1"></testcase>
  </testsuite>
</testsuites>`);

Deno.test("mergeWorkflows() keeps what did not run and drops what ran without publishing", () => {
  const previous = [
    wf("./ran_test.ts", "passed-now", " (old)"),
    wf("./ran_test.ts", "failed-now"),
    wf("./ran_test.ts", "filtered"),
    wf("./ran_test.ts", "no-longer-workflow"),
    wf("./ran_test.ts", "deleted-test"),
    wf("./other_test.ts", "untouched"),
    wf("./deleted_test.ts", "gone"),
  ];
  const current = [wf("./ran_test.ts", "passed-now", " (new)")];
  const merged = mergeWorkflows(previous, current, REPORT, (file) => file !== "./deleted_test.ts");
  assert.deepEqual(merged.map((w) => w.name).sort(), ["filtered", "passed-now (new)", "untouched"]);
});
