import assert from "node:assert/strict";
import { parsePipRequirementsLine } from "pip-requirements-js";
import { plainRequirement } from "./names.ts";
import { parsePackageSpec } from "../evaluation/package_spec.ts";
import { NOT_PLAIN_FORMS, PLAIN_FORMS } from "./names_cases.ts";

const PLAIN = PLAIN_FORMS;
/** Also left to the grammar: untrimmed text. */
const NOT_PLAIN = [...NOT_PLAIN_FORMS, " a>=1", "a>=1 ", "a>=1\n"];

Deno.test("plain requirements read exactly as the PEP 508 grammar reads them", () => {
  for (const spec of PLAIN) {
    const plain = plainRequirement(spec);
    assert.ok(plain, spec);
    const full = parsePipRequirementsLine(spec);
    assert.ok(full && full.type === "ProjectName", spec);
    assert.equal(plain.name, full.name, spec);
    assert.deepEqual(
      plain.clauses,
      (full.versionSpec ?? []).map((v) => ({ operator: v.operator, version: v.version })),
      spec,
    );
    assert.equal(full.extras, undefined, spec);
    assert.equal(full.environmentMarkerTree, undefined, spec);
  }
  for (const spec of NOT_PLAIN) assert.equal(plainRequirement(spec), null, JSON.stringify(spec));
});

Deno.test("parsePackageSpec: the plain forms give the same request and range as before", () => {
  const cases: Array<[string, string | undefined, unknown]> = [
    ["bench-package-7>=1.0", undefined, {
      ok: true,
      request: { name: "bench-package-7", version: null },
      range: ">=1.0",
    }],
    ["Urllib3 >= 1.26, < 2", undefined, {
      ok: true,
      request: { name: "urllib3", version: null },
      range: ">=1.26,<2",
    }],
    ["requests==2.31.0", undefined, { ok: true, request: { name: "requests", version: "2.31.0" } }],
    ["requests == 2.31.0", "2.31.0", {
      ok: true,
      request: { name: "requests", version: "2.31.0" },
    }],
    ["requests==2.31.0", "2.32.0", {
      ok: false,
      path: "version",
      message: "version 2.32.0 contradicts the pin 2.31.0 in package",
    }],
    ["a>=1", "1.0", {
      ok: false,
      path: "version",
      message: "pass either a range in package or a version, not both",
    }],
  ];
  for (const [spec, version, expected] of cases) {
    assert.deepEqual(parsePackageSpec(spec, version, { ranges: true }), expected, spec);
  }
  assert.deepEqual(parsePackageSpec("a>=1", undefined), {
    ok: false,
    path: "package",
    message: "only an exact pin (==X) may follow the name; pass other versions in `version`",
  });
});
