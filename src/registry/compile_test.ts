import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { compileRegistry } from "./compile.ts";
import { validateRegistry, validateRule } from "./schema.ts";
import { parseYaml, toYaml } from "./yaml.ts";
import { readExampleRegistry } from "./example.ts";
import { registryJsonSchemaText } from "./json_schema.ts";

const NOW = new Date("2026-11-21T12:00:00Z");

Deno.test("compileRegistry() normalises names, sorts by name and stamps compiled_at", async () => {
  const c = await compileRegistry(
    "version: v1\npackages:\n  - {name: Zope.Interface, status: approved}\n  - {name: Foo_Bar, status: banned}\n",
    NOW,
  );
  ok(c.ok);
  deepStrictEqual(c.registry.packages.map((p) => p.name), ["foo-bar", "zope-interface"]);
  equal(c.registry.version, "v1");
  equal(c.registry.compiled_at, NOW.toISOString());
  equal(c.registry.policies.cve_threshold, 7.0);
});

Deno.test("compileRegistry() fills in a content hash when version is absent", async () => {
  const a = await compileRegistry("packages: []\n", NOW);
  const b = await compileRegistry("packages: []\n", NOW);
  const c = await compileRegistry("packages: [{name: x, status: approved}]\n", NOW);
  ok(a.ok && b.ok && c.ok);
  ok(a.registry.version.startsWith("sha256:"));
  equal(a.registry.version, b.registry.version);
  ok(a.registry.version !== c.registry.version);
});

Deno.test("compileRegistry() reports path-qualified errors", async (t) => {
  const cases: Array<[string, string, string]> = [
    [
      "unknown status",
      "packages:\n  - {name: a, status: preferred}\n  - {name: b, status: allowed}\n",
      "packages[1].status",
    ],
    [
      "duplicate after normalisation",
      "packages:\n  - {name: Foo.Bar, status: approved}\n  - {name: foo-bar, status: banned}\n",
      "packages[1].name",
    ],
    [
      "bad PEP 440 version",
      "packages:\n  - {name: a, status: version-constrained, min_version: 'one'}\n",
      "packages[0].min_version",
    ],
    [
      "min above max",
      "packages:\n  - {name: a, status: version-constrained, min_version: '2.0', max_version: '1.0'}\n",
      "packages[0].min_version",
    ],
    [
      "invalid package name",
      "packages:\n  - {name: '-bad-', status: approved}\n",
      "packages[0].name",
    ],
    ["unknown policy key", "policies: {cve_treshold: 5}\n", "policies"],
    ["threshold out of range", "policies: {cve_threshold: 11}\n", "policies.cve_threshold"],
    [
      "unknown_license_policy value",
      "policies: {unknown_license_policy: maybe}\n",
      "policies.unknown_license_policy",
    ],
  ];
  for (const [name, yaml, path] of cases) {
    await t.step(name, async () => {
      const c = await compileRegistry(yaml, NOW);
      equal(c.ok, false);
      if (!c.ok) ok(c.errors.some((e) => e.path === path), JSON.stringify(c.errors));
    });
  }
});

Deno.test("parseYaml() rejects syntax errors, alias bombs and oversize documents", () => {
  const syntax = parseYaml("packages: [\n");
  equal(syntax.ok, false);
  const bomb = [
    "a: &a [x, x, x, x, x, x, x, x, x, x]",
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
    "f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]",
  ].join("\n");
  const exploded = parseYaml(bomb);
  equal(exploded.ok, false);
  const big = parseYaml("# " + "x".repeat(1024 * 1024 + 10));
  equal(big.ok, false);
});

Deno.test("validateRule() validates a single rule on its own", () => {
  const good = validateRule({ name: "Django", status: "version-constrained", min_version: "4.2" });
  ok(good.ok);
  equal(good.value.name, "django");
  const bad = validateRule({ name: "django", status: "version-constrained" });
  equal(bad.ok, false);
  const extra = validateRule({ name: "x", status: "approved", colour: "red" });
  equal(extra.ok, false);
});

Deno.test("the example registry holds §5's rules exactly plus 20+ packages across all five statuses", async () => {
  const c = await compileRegistry(await readExampleRegistry(), NOW);
  ok(c.ok, JSON.stringify(!c.ok && c.errors));
  const byName = new Map(c.registry.packages.map((p) => [p.name, p]));
  deepStrictEqual(byName.get("requests"), { name: "requests", status: "preferred" });
  deepStrictEqual(byName.get("pyyaml"), {
    name: "pyyaml",
    status: "version-constrained",
    min_version: "6.0.1",
    reason: "yaml.load RCE before 5.4; 6.0.1 builds on Python 3.12",
  });
  deepStrictEqual(byName.get("pycrypto"), {
    name: "pycrypto",
    status: "banned",
    reason: "unmaintained since 2013",
    replacement: "cryptography",
  });
  deepStrictEqual(c.registry.policies, {
    cve_threshold: 7.0,
    block_on_cve: true,
    unversioned_cve_scope: "latest",
    licenses: {
      allowed: ["MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "PSF-2.0", "MPL-2.0"],
      denied: [
        "GPL-2.0-only",
        "GPL-2.0-or-later",
        "GPL-3.0-only",
        "GPL-3.0-or-later",
        "AGPL-3.0-only",
        "AGPL-3.0-or-later",
        "SSPL-1.0",
      ],
    },
    unknown_license_policy: "provisional",
    on_missing_data: "allow",
    min_release_age_days: 0,
    // SPEC §17 threat policies: absent from the example registry, so their defaults apply.
    typosquat: "deny",
    min_project_age_days: 14,
  });
  deepStrictEqual(c.registry.exceptions.map((e) => e.package), ["mysql-connector-python"]);
  ok(c.registry.packages.length >= 20);
  deepStrictEqual(
    new Set(c.registry.packages.map((p) => p.status)),
    new Set(["preferred", "approved", "version-constrained", "deprecated", "banned"]),
  );
});

Deno.test("registry/registry.schema.json is generated from the validator and up to date", async () => {
  const committed = await Deno.readTextFile(
    new URL("../../registry/registry.schema.json", import.meta.url),
  );
  equal(committed, registryJsonSchemaText(), "run `deno task schema` to regenerate it");
});

Deno.test("exceptions validate with path-qualified errors and survive a YAML round trip", async () => {
  const bad = await compileRegistry(`
exceptions:
  - package: requests
    versions: "not a specifier"
    vulnerabilities: [CVE-2024-35195]
    expires: "2026-02-30"
  - package: flask
    reason: "names nothing"
    expires: "2027-01-01"
  - package: six
    licenses: [MIT]
    reason: "no expiry"
`);
  ok(!bad.ok);
  const paths = bad.errors.map((e) => `${e.path}: ${e.message}`);
  ok(paths.some((p) => p.startsWith("exceptions[0].versions:")), paths.join("\n"));
  ok(paths.some((p) => p.startsWith("exceptions[0].reason:")), paths.join("\n"));
  ok(paths.some((p) => p === "exceptions[0].expires: is not a real date"), paths.join("\n"));
  ok(paths.some((p) => p.startsWith("exceptions[1].vulnerabilities:")), paths.join("\n"));
  ok(paths.some((p) => p.startsWith("exceptions[2].expires:")), paths.join("\n"));

  const good = await compileRegistry(`
exceptions:
  - package: Requests
    versions: "<2.32"
    vulnerabilities: [GHSA-9wx4-h78v-vm56]
    reason: "verify=False is never reused"
    expires: "2027-01-31"
    approved_by: sec@example.com
`);
  ok(good.ok, JSON.stringify(!good.ok && good.errors));
  deepStrictEqual(good.registry.exceptions, [{
    package: "requests",
    versions: "<2.32",
    vulnerabilities: ["GHSA-9wx4-h78v-vm56"],
    reason: "verify=False is never reused",
    expires: "2027-01-31",
    approved_by: "sec@example.com",
  }]);
  // The compiled exceptions are authored fields only: they re-validate unchanged.
  const reparsed = parseYaml(toYaml({ exceptions: good.registry.exceptions }));
  ok(reparsed.ok);
  const again = validateRegistry(reparsed.value);
  ok(again.ok);
  deepStrictEqual(again.value.exceptions, good.registry.exceptions);
});
