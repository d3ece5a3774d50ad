import assert from "node:assert/strict";
import { parseJUnit, testKey } from "./junit.ts";

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="6" failures="2" errors="0" time="0.1">
    <testsuite name="./tests/a_test.ts" tests="5" disabled="1" errors="0" failures="2">
        <testcase name="passes &amp; &quot;quotes&quot; &gt; &#39;x&#39;" classname="./tests/a_test.ts" time="0.001" line="3" col="6">
        </testcase>
        <testcase name="fails" classname="./tests/a_test.ts" time="0.000" line="4" col="6">
            <failure message="Uncaught Error: no">Error: no</failure>
        </testcase>
        <testcase name="cancelled" classname="./tests/a_test.ts" time="0.000" line="5" col="6"><error message="Cancelled"/></testcase>
        <testcase name="ignored" classname="./tests/a_test.ts" line="6" col="6"><skipped/></testcase>
        <testcase name="twice" classname="./tests/a_test.ts" time="0.0" line="7" col="6"></testcase>
        <testcase name="twice" classname="./tests/a_test.ts" time="0.0" line="8" col="6"></testcase>
        <testcase name="repeated" classname="./tests/a_test.ts" time="0.0" line="9" col="6"></testcase>
        <testcase name="repeated" classname="./tests/a_test.ts" time="0.0" line="9" col="6"><failure message="x"/></testcase>
    </testsuite>
    <testsuite name="../outside_test.ts" tests="0"></testsuite>
</testsuites>`;

Deno.test("parseJUnit() maps Deno's JUnit report to verdicts", () => {
  const report = parseJUnit(XML);
  const v = (name: string) => report.verdicts.get(testKey("./tests/a_test.ts", name));
  assert.equal(v(`passes & "quotes" > 'x'`), "passed");
  assert.equal(v("fails"), "failed");
  assert.equal(v("cancelled"), "failed");
  assert.equal(v("ignored"), "skipped");
  assert.equal(v("repeated"), "failed", "a repeated test passes only if every run passed");
  assert.equal(v("missing"), undefined);
  assert.deepEqual([...report.files], ["./tests/a_test.ts", "../outside_test.ts"]);
  assert.deepEqual([...report.ambiguous], [testKey("./tests/a_test.ts", "twice")]);
});
