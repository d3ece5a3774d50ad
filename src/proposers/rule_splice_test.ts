import assert from "node:assert/strict";
import { readExampleRegistry } from "../registry/example.ts";
import { lineDiff, withoutVersionHunk } from "../../tests/helpers/line_diff.ts";
import { upsertRule } from "./registry_edit.ts";
import { spliceRule } from "./rule_splice.ts";
import { parseDocument } from "yaml";

/** A registry written by hand: comments everywhere, flow and block lists, odd spacing. */
const AUTHORED = `# Team registry — reviewed in pull requests.
version: "2026.11.21" # bumped by hand
policies:
  cve_threshold: 7.0
  licenses:
    allowed: [MIT, Apache-2.0]   # keep short
    denied:
      - GPL-3.0-only

packages:
  # --- preferred
  - name: Flask # the author's spelling
    status: preferred
  -   name: numpy
      status: version-constrained
      min_version: '1.26' # data team
      reason: "ABI"
  # --- banned
  - {name: pycrypto, status: banned, replacement: cryptography}
  - name: requests
    status: preferred
# trailing comment
`;

/** The hunks of an edit of AUTHORED-like text, besides its refreshed `version:` line. */
async function onlyChange(before: string, after: string) {
  return withoutVersionHunk((await lineDiff(before, after)).hunks, "2026.11.21");
}

Deno.test("a new rule leaves every other line of a commented registry byte-identical", async () => {
  const edit = upsertRule(AUTHORED, { name: "Left_Pad", status: "approved", reason: "padding" });
  assert.ok(edit.ok && edit.changed);
  assert.deepEqual(await onlyChange(AUTHORED, edit.text), [{
    removed: [],
    added: ["  - name: left-pad", "    status: approved", "    reason: padding"],
  }]);
  // Sorted position: after flask (the rule before it), before numpy.
  assert.match(edit.text, /status: preferred\n {2}- name: left-pad\n[^]*\n {2}- {3}name: numpy/);
});

Deno.test("changing a rule rewrites only its changed values; comments and spelling stay", async () => {
  const edit = upsertRule(AUTHORED, {
    name: "numpy",
    status: "version-constrained",
    min_version: "2.0",
  });
  assert.ok(edit.ok && edit.changed);
  assert.deepEqual(await onlyChange(AUTHORED, edit.text), [{
    removed: ["      min_version: '1.26' # data team", '      reason: "ABI"'],
    added: ['      min_version: "2.0" # data team'],
  }]);
  const flask = upsertRule(AUTHORED, { name: "flask", status: "banned", reason: "moved to x" });
  assert.ok(flask.ok);
  assert.deepEqual(await onlyChange(AUTHORED, flask.text), [
    { removed: ["    status: preferred"], added: ["    status: banned", "    reason: moved to x"] },
  ]);
  assert.match(flask.text, /- name: Flask # the author's spelling\n {4}status: banned/);
});

Deno.test("a flow rule that changes becomes one block rule; nothing else moves", async () => {
  const edit = upsertRule(AUTHORED, { name: "pycrypto", status: "deprecated" });
  assert.ok(edit.ok && edit.changed);
  assert.deepEqual(await onlyChange(AUTHORED, edit.text), [{
    removed: ["  - {name: pycrypto, status: banned, replacement: cryptography}"],
    added: ["  - name: pycrypto", "    status: deprecated"],
  }]);
});

Deno.test("the example registry keeps its header and flow lists when a rule is applied; only the version value is refreshed", async () => {
  const example = await readExampleRegistry();
  for (
    const rule of [
      { name: "flask", status: "approved", reason: "web" },
      { name: "aaa-first", status: "approved" },
      { name: "zzz-last", status: "banned", reason: "no" },
      { name: "pyyaml", status: "banned", reason: "x" },
    ]
  ) {
    const edit = upsertRule(example, rule);
    assert.ok(edit.ok && edit.changed, rule.name);
    const hunks = await onlyChange(example, edit.text);
    assert.equal(hunks.length >= 1, true);
    const touched = hunks.flatMap((h) => [...h.removed, ...h.added]);
    for (const line of touched) {
      assert.ok(
        /^ {2}- name: |^ {4}(status|reason|min_version|max_version|replacement): /.test(line),
        `${rule.name}: only the rule's own lines change, not ${JSON.stringify(line)}`,
      );
    }
    assert.ok(edit.text.startsWith(example.split("\n").slice(0, 2).join("\n")), "header kept");
    assert.match(edit.text.split("\n")[2], /^version: "2026\.11\.21\+[0-9a-f]{12}" # optional/);
  }
});

Deno.test("spliceRule() appends a packages list when there is none, and keeps a file without final newline", () => {
  assert.equal(
    spliceRule("# only policies\npolicies:\n  block_on_cve: true", {
      name: "a",
      status: "approved",
    }),
    "# only policies\npolicies:\n  block_on_cve: true\npackages:\n  - name: a\n    status: approved\n",
  );
  assert.equal(
    spliceRule("packages:\n  - name: b\n    status: approved", { name: "c", status: "banned" }),
    "packages:\n  - name: b\n    status: approved\n  - name: c\n    status: banned\n",
  );
  assert.equal(spliceRule("packages: []\n", { name: "a", status: "approved" }), null);
  assert.equal(
    spliceRule("packages:\n  - name: a\n    reason: >-\n      long\n    status: approved\n", {
      name: "a",
      status: "approved",
      reason: "short",
    }),
    "packages:\n  - name: a\n    status: approved\n    reason: short\n",
    "a rule with a block scalar is rewritten as a whole",
  );
});

Deno.test("spliceRule() keeps Windows line endings", async () => {
  const crlf = AUTHORED.replaceAll("\n", "\r\n");
  const edited = spliceRule(crlf, { name: "left-pad", status: "approved" });
  assert.ok(edited !== null);
  assert.equal(edited.replaceAll("\r\n", "").includes("\n"), false, "no bare LF");
  assert.deepEqual((await lineDiff(crlf, edited)).hunks, [{
    removed: [],
    added: ["  - name: left-pad\r", "    status: approved\r"],
  }]);
});

Deno.test("an in-place edit means what a re-rendered document means", () => {
  const sources = [AUTHORED, "packages:\n  - name: a\n    status: approved", "# c\n"];
  const rules: Array<Record<string, string>> = [
    { name: "a", status: "banned", reason: "gone: see #12" },
    { name: "numpy", status: "approved" },
    { name: "pycrypto", status: "version-constrained", min_version: "3.0", max_version: "4" },
    { name: "zeta", status: "deprecated", replacement: "alpha", reason: "'quoted' \"text\"" },
    { name: "Flask", status: "preferred", reason: "the author's spelling" },
  ];
  for (const source of sources) {
    for (const rule of rules) {
      const edited = spliceRule(source, rule);
      assert.ok(edited !== null, `${rule.name} in place`);
      const want = parseDocument(source).toJSON() ?? {};
      const list = (want.packages ??= []) as Array<Record<string, string>>;
      const at = list.findIndex((p) => p.name.toLowerCase() === rule.name.toLowerCase());
      if (at >= 0) list[at] = { ...rule, name: list[at].name };
      const got = parseDocument(edited).toJSON();
      const byName = (rows: Array<Record<string, string>>) =>
        Object.fromEntries(rows.map((r) => [r.name.toLowerCase(), r]));
      if (at < 0) {
        assert.deepEqual(byName(got.packages), byName([...list, rule]), `${rule.name} added`);
      } else {
        assert.deepEqual(got.packages, list, `${rule.name} replaced`);
      }
      assert.deepEqual(
        { ...got, packages: null },
        { ...want, packages: null },
        "the rest is equal",
      );
    }
  }
});
