/** The pure event builders: severities, keys, rule diffs. */
import { deepStrictEqual, equal } from "node:assert/strict";
import { cvssSeverity, payloadOf, ruleChangedEvents } from "./events.ts";

Deno.test("CVSS bands of the security report", () => {
  deepStrictEqual([9.8, 9, 7.5, 4, 3.9, null].map(cvssSeverity), [
    "critical",
    "critical",
    "high",
    "medium",
    "low",
    "medium",
  ]);
});

Deno.test("rule_changed: one event per package added, changed or removed, with before and after", () => {
  const events = ruleChangedEvents({
    before: new Map([
      ["flask", { name: "flask", status: "approved" }],
      ["pycrypto", { name: "pycrypto", status: "approved" }],
      ["six", { name: "six", status: "deprecated" }],
    ]),
    after: new Map([
      ["flask", { name: "flask", status: "approved" }],
      ["pycrypto", { name: "pycrypto", status: "banned", replacement: "cryptography" }],
      ["isort", { name: "isort", status: "approved" }],
    ]),
    previous_version: "1",
    new_version: "2",
    previous_hash: "aaa",
    new_hash: "bbb",
    occurred_at: "2026-11-26T06:00:00.000Z",
  });
  deepStrictEqual(events.map((e) => [e.package, e.title]), [
    ["isort", "registry 2: isort added as approved"],
    ["pycrypto", "registry 2: pycrypto approved → banned"],
    ["six", "registry 2: six removed"],
  ]);
  equal(events[0].key, "rule_changed:aaa:bbb:isort");
  deepStrictEqual(events[2].data.after, null);
  equal(
    payloadOf(events[1], "https://p.example/").url,
    "https://p.example/dashboard/package/pycrypto",
  );
});
