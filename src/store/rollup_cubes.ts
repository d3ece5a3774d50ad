/**
 * The rollup cubes: which audit groupings are kept per time bucket, and
 * which `group()` calls each one can answer exactly. A cube is a grouping
 * (`by`) of the rows that pass a fixed restriction (`where`); a call is
 * served by the first cube whose restriction its filter implies and whose
 * grouping holds every key it groups or filters by. The list is tuned to
 * the queries of the reports (src/reports); any other call reads the audit
 * log as before.
 *
 * @module
 */
import { DENIAL_CATEGORIES } from "../core/types.ts";
import type { AuditCategory, AuditFilter, AuditGroupKey, AuditVerdict } from "./types.ts";

/** The restriction of a cube: rows outside it are not in the cube. */
export type CubeRestriction = Pick<
  AuditFilter,
  "verdicts" | "categories" | "dataUnavailable" | "registryKnown" | "project"
>;

/** One rollup cube. */
export interface Cube {
  /** Stored in the rollup table; never reuse a name for a different cube. */
  name: string;
  by: AuditGroupKey[];
  where: CubeRestriction;
}

const LICENSE_DENIALS: AuditCategory[] = ["DENIAL_LICENSE", "DENIAL_LICENSE_UNKNOWN"];
const ALL_CATEGORIES: AuditCategory[] = [...DENIAL_CATEGORIES, "DENIAL_CVE_ALERT"];

/** Every cube, the cheapest to read first (a call takes the first that serves it). */
export const CUBES: readonly Cube[] = [
  // totals, verdicts and categories per day, severity bands (legal, security, activity)
  { name: "verdict_category_severity", by: ["verdict", "category", "severity"], where: {} },
  // the license mix (legal)
  { name: "verdict_license", by: ["verdict", "license"], where: {} },
  // data availability (legal, security)
  { name: "vulns_unavailable", by: ["verdict"], where: { dataUnavailable: "vulnerabilities" } },
  { name: "license_unavailable", by: ["verdict"], where: { dataUnavailable: "license" } },
  // the agents report
  { name: "agents", by: ["verdict", "agent_model", "agent_version"], where: {} },
  // the agents report with its breakdown by source (people without agent headers)
  {
    name: "agents_source",
    by: ["verdict", "agent_model", "agent_version", "source"],
    where: {},
  },
  // license denials per project (legal)
  {
    name: "license_denials_project",
    by: ["category", "project"],
    where: { categories: LICENSE_DENIALS },
  },
  // CVE denials per package and per CVE (security)
  { name: "cve_denials_package", by: ["package"], where: { categories: ["DENIAL_CVE"] } },
  {
    name: "cve_denials_cve_package",
    by: ["cve", "package"],
    where: { categories: ["DENIAL_CVE"] },
  },
  // provisional answers for registry packages (security)
  {
    name: "provisional_known_package",
    by: ["package"],
    where: { verdicts: ["PROVISIONALLY_ALLOWED"], registryKnown: true },
  },
  // denials per category and package (activity)
  { name: "denials_package", by: ["category", "package"], where: { categories: ALL_CATEGORIES } },
];

const subset = <T>(inner: readonly T[], outer: readonly T[]) =>
  inner.every((v) => outer.includes(v));
const sameSet = <T>(a: readonly T[], b: readonly T[]) => subset(a, b) && subset(b, a);

/** A list filter (verdicts, categories) against the cube's restriction and grouping. */
function listServed<T>(wanted: T[] | undefined, restricted: T[] | undefined, grouped: boolean) {
  if (restricted) {
    return wanted !== undefined && subset(wanted, restricted) &&
      (grouped || sameSet(wanted, restricted));
  }
  return wanted === undefined || grouped;
}

/** Whether `cube` answers `group(filter, by)` exactly (the window aside). */
export function serves(cube: Cube, filter: AuditFilter, by: readonly AuditGroupKey[]): boolean {
  const has = (key: AuditGroupKey) => cube.by.includes(key);
  if (by.includes("cve") !== has("cve")) return false; // a cve cube counts a row once per CVE
  if (!by.every((key) => key === "day" || has(key))) return false;
  if (filter.before) return false;
  if (!listServed(filter.verdicts, cube.where.verdicts, has("verdict"))) return false;
  if (!listServed(filter.categories, cube.where.categories, has("category"))) return false;
  if ((filter.dataUnavailable ?? null) !== (cube.where.dataUnavailable ?? null)) return false;
  if (Boolean(filter.registryKnown) !== Boolean(cube.where.registryKnown)) return false;
  if (cube.where.project !== undefined && filter.project !== cube.where.project) return false;
  const needs: Array<[unknown, AuditGroupKey]> = [
    [cube.where.project === undefined ? filter.project : undefined, "project"],
    [filter.package, "package"],
    [filter.packages, "package"],
    [filter.license, "license"],
    [filter.hasLicense || undefined, "license"],
    [filter.agent_model, "agent_model"],
    [filter.agentModelPrefix, "agent_model"],
    [filter.source, "source"],
  ];
  return needs.every(([value, key]) => value === undefined || has(key));
}

/**
 * The cube that serves `group(filter, by)`, if any. A call scoped to a
 * project that no cube groups by is served by that project's own copy of
 * a cube (named `cube@project`, restricted to the project's rows), stored
 * once a report of that project asks for it.
 */
export function cubeFor(filter: AuditFilter, by: readonly AuditGroupKey[]): Cube | undefined {
  const cube = CUBES.find((cube) => serves(cube, filter, by));
  if (cube || filter.project === undefined) return cube;
  const { project, ...everyProject } = filter;
  const base = CUBES.find((cube) => serves(cube, everyProject, by));
  return base &&
    { name: `${base.name}@${project}`, by: base.by, where: { ...base.where, project } };
}

/** Keys of a stored cube group, by grouping key. */
export type CubeKeys = Partial<Record<AuditGroupKey, string | null>>;

/**
 * The part of `filter` a served cube still has to apply to its stored
 * groups (the restriction is already applied), as a predicate on their keys.
 */
export function keyPredicate(cube: Cube, filter: AuditFilter): (keys: CubeKeys) => boolean {
  const checks: Array<(keys: CubeKeys) => boolean> = [];
  const equals = (key: AuditGroupKey, value: string | undefined) => {
    if (value !== undefined && cube.by.includes(key)) checks.push((keys) => keys[key] === value);
  };
  const within = (key: AuditGroupKey, values: readonly string[] | undefined) => {
    if (values !== undefined && cube.by.includes(key)) {
      checks.push((keys) => keys[key] !== null && values.includes(keys[key]!));
    }
  };
  equals("project", filter.project);
  equals("package", filter.package);
  equals("license", filter.license);
  equals("agent_model", filter.agent_model);
  equals("source", filter.source);
  const prefix = filter.agentModelPrefix?.toLowerCase();
  if (prefix !== undefined && cube.by.includes("agent_model")) {
    checks.push((keys) => (keys.agent_model ?? "").toLowerCase().startsWith(prefix));
  }
  if (filter.hasLicense) checks.push((keys) => keys.license !== null);
  within("package", filter.packages);
  within("verdict", filter.verdicts as AuditVerdict[] | undefined);
  within("category", filter.categories);
  return (keys) => checks.every((check) => check(keys));
}
