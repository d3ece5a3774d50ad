import assert from "node:assert/strict";
import { upsertRule } from "./registry_edit.ts";
import { compileRegistry } from "../registry/compile.ts";

const SOURCE = `# the team's registry
policies:
  cve_threshold: 7.0
packages:
  - name: numpy # pinned by the data team
    status: preferred
  - name: requests
    status: preferred
`;

Deno.test("upsertRule() inserts a new rule in name order and keeps comments", () => {
  const edit = upsertRule(SOURCE, {
    name: "Pandas_Extra",
    status: "approved",
    reason: "data work",
  });
  assert.ok(edit.ok);
  assert.equal(edit.changed, true);
  assert.match(edit.text, /# the team's registry/);
  assert.match(edit.text, /# pinned by the data team/);
  const names = [...edit.text.matchAll(/name: (\S+)/g)].map((m) => m[1]);
  assert.deepEqual(names, ["numpy", "pandas-extra", "requests"]);
});

Deno.test("upsertRule() replaces an existing rule matched by normalised name", () => {
  const edit = upsertRule(SOURCE, { name: "Requests", status: "banned", reason: "policy change" });
  assert.ok(edit.ok);
  assert.equal((edit.text.match(/name: requests/g) ?? []).length, 1);
  assert.match(edit.text, /status: banned/);
});

Deno.test("upsertRule() reports no change for an identical rule and returns the source as is", () => {
  const edit = upsertRule(SOURCE, { name: "requests", status: "preferred" });
  assert.ok(edit.ok);
  assert.equal(edit.changed, false);
  assert.equal(edit.text, SOURCE);
});

Deno.test("upsertRule() starts an empty registry when there is no file", () => {
  for (const source of [null, "", "# only a comment\n", "packages: []\n"]) {
    const edit = upsertRule(source, { name: "left-pad", status: "approved" });
    assert.ok(edit.ok, String(source));
    assert.match(edit.text, /- name: left-pad\n\s+status: approved/);
  }
});

Deno.test("upsertRule() keeps versions as strings", () => {
  const edit = upsertRule(null, {
    name: "pyyaml",
    status: "version-constrained",
    min_version: "6.0",
    max_version: "7.0",
  });
  assert.ok(edit.ok);
  assert.match(edit.text, /min_version: "6.0"/);
  assert.match(edit.text, /max_version: "7.0"/);
});

Deno.test("upsertRule() rejects an invalid rule with rule-qualified paths", () => {
  const edit = upsertRule(SOURCE, { name: "x", status: "whitelisted" });
  assert.equal(edit.ok, false);
  assert.equal(!edit.ok && edit.where, "rule");
  assert.ok(!edit.ok && edit.errors.some((e) => e.path === "rule.status"));
});

Deno.test("upsertRule() rejects a registry the merge would leave invalid", () => {
  const broken = "packages:\n  - name: a\n    status: preferred\n  - name: A\n    status: banned\n";
  const edit = upsertRule(broken, { name: "b", status: "approved" });
  assert.equal(edit.ok, false);
  assert.equal(!edit.ok && edit.where, "registry");
  const notYaml = upsertRule("packages: [", { name: "b", status: "approved" });
  assert.equal(notYaml.ok, false);
});

Deno.test("upsertRule() refreshes an authored version: a changed registry gets a new version", async () => {
  const source =
    'version: "2026.11.21" # by hand\npackages:\n  - name: six\n    status: approved\n';
  const edit = upsertRule(source, { name: "flask", status: "preferred" });
  assert.ok(edit.ok && edit.changed);
  const [versionLine, ...rest] = edit.text.split("\n");
  assert.match(versionLine, /^version: "2026\.11\.21\+[0-9a-f]{12}" # by hand$/);
  assert.equal(
    rest.join("\n"),
    "packages:\n  - name: flask\n    status: preferred\n  - name: six\n    status: approved\n",
  );
  const before = await compileRegistry(source);
  const after = await compileRegistry(edit.text);
  assert.ok(before.ok && after.ok);
  assert.notEqual(after.registry.version, before.registry.version);
  assert.match(after.registry.version, /^2026\.11\.21\+[0-9a-f]{12}$/);
  // The same edit gives the same version; a second edit replaces the suffix, not appends.
  const again = upsertRule(source, { name: "flask", status: "preferred" });
  assert.ok(again.ok && again.text === edit.text);
  const second = upsertRule(edit.text, { name: "six", status: "banned", reason: "py2 shim" });
  assert.ok(second.ok && second.changed);
  assert.match(second.text, /^version: "2026\.11\.21\+[0-9a-f]{12}" # by hand\n/);
  assert.notEqual(second.text.split("\n")[0], versionLine);
  // No change, no new version; a registry without `version:` stays without one.
  const same = upsertRule(source, { name: "six", status: "approved" });
  assert.ok(same.ok && !same.changed && same.text === source);
  const unlabelled = upsertRule(SOURCE, { name: "flask", status: "preferred" });
  assert.ok(unlabelled.ok && !/^version:/m.test(unlabelled.text));
});

Deno.test("upsertRule() keeps the quoting of a plain or single-quoted version", () => {
  for (
    const [line, want] of [
      ["version: 7", /^version: 7\+[0-9a-f]{12}\n/],
      ["version: '2026.1'", /^version: '2026\.1\+[0-9a-f]{12}'\n/],
    ] as const
  ) {
    const edit = upsertRule(`${line}\npackages:\n  - name: a\n    status: approved\n`, {
      name: "b",
      status: "approved",
    });
    assert.ok(edit.ok && edit.changed, line);
    assert.match(edit.text, want);
  }
});
