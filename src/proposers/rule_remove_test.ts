import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { removeRule } from "./rule_remove.ts";
import { upsertRule } from "./registry_edit.ts";

const REGISTRY = `# team registry
policies:
  cve_threshold: 7
packages:
  # web stack
  - name: flask
    status: approved
  - name: requests
    status: preferred # the HTTP client
  - name: urllib3
    status: approved
`;

Deno.test("removeRule after upsertRule gives back the document byte for byte", () => {
  for (const name of ["aaa", "Left_Pad", "zzz", "pyyaml"]) {
    const added = upsertRule(REGISTRY, { name, status: "approved", reason: "needed" });
    ok(added.ok && added.changed);
    const removed = removeRule(added.text, name);
    ok(removed.ok && removed.changed, name);
    equal(removed.text, REGISTRY, name);
  }
});

Deno.test("removeRule matches the normalised name and keeps the other rules", () => {
  const out = removeRule(REGISTRY, "Requests");
  ok(out.ok);
  equal(out.text.includes("requests"), false);
  ok(out.text.includes("- name: flask") && out.text.includes("- name: urllib3"));
  ok(out.text.includes("# web stack"));
});

Deno.test("removeRule of an absent rule or an empty file changes nothing", () => {
  const absent = removeRule(REGISTRY, "numpy");
  ok(absent.ok);
  deepStrictEqual([absent.changed, absent.text], [false, REGISTRY]);
  const empty = removeRule(null, "numpy");
  ok(empty.ok && !empty.changed);
});

Deno.test("removeRule of the only rule or in a flow list re-renders the document", () => {
  const only = removeRule("packages:\n  - name: a\n    status: approved\n", "a");
  ok(only.ok && only.changed);
  equal(only.text, "packages: []\n");
  const flow = removeRule(
    "packages: [{name: a, status: approved}, {name: b, status: banned}]\n",
    "b",
  );
  ok(flow.ok && flow.changed);
  equal(flow.text.includes("name: b"), false);
  ok(flow.text.includes("name: a"));
});

Deno.test("removeRule refuses a document that would not validate", () => {
  const bad = removeRule("packages: [\n", "a");
  equal(bad.ok, false);
});
