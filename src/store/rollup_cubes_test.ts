import { equal } from "node:assert/strict";
import { cubeFor, keyPredicate } from "./rollup_cubes.ts";
import type { AuditFilter, AuditGroupKey } from "./types.ts";

const since = "2026-11-01T00:00:00.000Z";
const evaluations: AuditFilter = {
  since,
  verdicts: ["ALLOWED", "DENIED", "PROVISIONALLY_ALLOWED"],
};

Deno.test("cubeFor() picks the first cube that answers a call exactly, or none", async (t) => {
  const cases: Array<[string, AuditFilter, AuditGroupKey[], string | undefined]> = [
    ["evaluation totals", evaluations, [], "verdict_category_severity"],
    ["verdicts per day", evaluations, ["day", "verdict"], "verdict_category_severity"],
    [
      "the license mix",
      { ...evaluations, hasLicense: true },
      ["license", "verdict"],
      "verdict_license",
    ],
    ["data unavailable", { ...evaluations, dataUnavailable: "license" }, [], "license_unavailable"],
    ["agents", evaluations, ["agent_model", "agent_version", "verdict"], "agents"],
    [
      "agents by source",
      evaluations,
      ["agent_model", "agent_version", "source", "verdict"],
      "agents_source",
    ],
    [
      "CVE denials per CVE",
      { since, categories: ["DENIAL_CVE"] },
      ["cve"],
      "cve_denials_cve_package",
    ],
    [
      "CVE denials per package",
      { since, categories: ["DENIAL_CVE"] },
      ["package"],
      "cve_denials_package",
    ],
    [
      "banned denials per package",
      { since, categories: ["DENIAL_BANNED"] },
      ["package"],
      "denials_package",
    ],
    ["a restricted cube needs the restriction", { since }, ["package"], undefined],
    ["a cve cube never answers a call without cve", { since, categories: ["DENIAL_CVE"] }, [
      "project",
    ], undefined],
    ["a project's copy of a cube", { ...evaluations, project: "web" }, [
      "agent_model",
      "agent_version",
      "verdict",
    ], "agents@web"],
    ["a cube grouping by project", { since, categories: ["DENIAL_LICENSE"], project: "web" }, [
      "project",
    ], "license_denials_project"],
    ["a cursor", { ...evaluations, before: { ts: since, id: 1 } }, [], undefined],
    ["registry-known needs its cube", { ...evaluations, registryKnown: true }, [], undefined],
  ];
  for (const [name, filter, by, cube] of cases) {
    await t.step(name, () => equal(cubeFor(filter, by)?.name, cube));
  }
});

Deno.test("a project's copy of a cube is restricted to the project's rows", () => {
  const filter: AuditFilter = { ...evaluations, project: "web" };
  const cube = cubeFor(filter, [])!;
  equal(cube.where.project, "web");
  equal(keyPredicate(cube, filter)({ verdict: "ALLOWED", category: null }), true);
  equal(cubeFor({ ...filter, project: "shop" }, [])?.name, "verdict_category_severity@shop");
});

Deno.test("keyPredicate() applies what the cube's restriction does not", () => {
  const filter: AuditFilter = { since, categories: ["DENIAL_BANNED"] };
  const cube = cubeFor(filter, ["package"])!;
  const matches = keyPredicate(cube, filter);
  equal(matches({ category: "DENIAL_BANNED", package: "a" }), true);
  equal(matches({ category: "DENIAL_CVE", package: "a" }), false);
  const licensed = keyPredicate(cubeFor({ ...evaluations, hasLicense: true }, ["license"])!, {
    ...evaluations,
    hasLicense: true,
  });
  equal(licensed({ verdict: "DENIED", license: null }), false);
  equal(licensed({ verdict: "DENIED", license: "MIT" }), true);
  equal(licensed({ verdict: "CVE_ALERT", license: "MIT" }), false);
});
