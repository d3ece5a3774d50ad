/**
 * The rollup part of the store contract (registered by
 * `contract_test_suite.ts`): random audit rows over many days, then every
 * `group()` call the reports make, over windows with partial edge days and
 * hours, must equal the backend's raw `GROUP BY` answer; again after late
 * rows land in buckets already rolled up, and after more days pass.
 *
 * @module
 */
import { auditRow } from "../../tests/helpers/audit_rows.ts";
import type {
  AuditCategory,
  AuditFilter,
  AuditGroup,
  AuditGroupKey,
  NewAuditRow,
} from "./types.ts";

/** A seeded pseudo-random source (mulberry32), so a failure reproduces. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EVALUATIONS = ["ALLOWED", "DENIED", "PROVISIONALLY_ALLOWED"] as const;
const CATEGORIES: AuditCategory[] = [
  "DENIAL_CVE",
  "DENIAL_LICENSE",
  "DENIAL_LICENSE_UNKNOWN",
  "DENIAL_BANNED",
];

/** A random audit row drawn from small pools, so groups collide. */
export function randomRow(random: () => number): NewAuditRow {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const verdict = pick([...EVALUATIONS, "ALLOWED", "ALLOWED", "CVE_ALERT"] as const);
  const category = verdict === "DENIED"
    ? pick(CATEGORIES)
    : verdict === "CVE_ALERT"
    ? "DENIAL_CVE_ALERT"
    : null;
  const cves = Array.from(
    { length: pick([0, 0, 1, 2, 3]) },
    () => pick(["CVE-1", "CVE-2", "CVE-3", "CVE-4"]),
  );
  const unavailable = () => ({ status: "unavailable" as const, fetched_at: null });
  const fresh = () => ({ status: "fresh" as const, fetched_at: "2026-11-01T00:00:00.000Z" });
  return auditRow({
    package: pick(["a", "b", "c", "d", "e"]),
    license: pick(["MIT", "UNKNOWN", "GPL-3.0-only", null]),
    verdict,
    project: pick(["p1", "p2", "p3", "p4"]),
    agent_model: pick(["claude", "gpt", null]),
    agent_version: pick(["1", "2", null]),
    source: pick(["api", "hook", "check"]),
    denial_category: category,
    cve_ids: cves,
    max_cvss: cves.length || random() < 0.2 ? pick([null, 2.5, 5.0, 7.5, 9.8]) : null,
    registry_status: pick([null, null, "approved", "preferred"]),
    data: pick([
      null,
      { vulnerabilities: fresh(), license: fresh() },
      { vulnerabilities: unavailable(), license: fresh() },
      { vulnerabilities: fresh(), license: unavailable() },
    ]),
  });
}

/** Every `group()` call of the reports (legal, security, agents, activity, pending queue). */
export function reportCalls(window: AuditFilter): Array<[AuditFilter, AuditGroupKey[]]> {
  const evaluations = { ...window, verdicts: [...EVALUATIONS] };
  const licenseDenials = {
    ...window,
    categories: ["DENIAL_LICENSE", "DENIAL_LICENSE_UNKNOWN"] as AuditCategory[],
  };
  const cveDenials = { ...window, categories: ["DENIAL_CVE"] as AuditCategory[] };
  const denials = { ...window, categories: CATEGORIES };
  const licensed = { ...evaluations, hasLicense: true };
  return [
    [evaluations, []],
    [{ ...evaluations, dataUnavailable: "vulnerabilities" }, []],
    [{ ...evaluations, dataUnavailable: "license" }, []],
    [licenseDenials, []],
    [licenseDenials, ["project"]],
    [licensed, ["license", "verdict"]],
    [{ ...licensed, license: "UNKNOWN" }, ["license", "verdict"]],
    [{ ...evaluations, license: "UNKNOWN" }, []],
    [cveDenials, []],
    [cveDenials, ["severity"]],
    [cveDenials, ["package"]],
    [cveDenials, ["cve"]],
    [cveDenials, ["cve", "package"]],
    [{ ...window, verdicts: ["PROVISIONALLY_ALLOWED"], registryKnown: true }, ["package"]],
    [evaluations, ["agent_model", "agent_version", "verdict"]],
    [evaluations, ["day", "verdict"]],
    [denials, ["day", "category"]],
    [denials, ["category", "package"]],
    [evaluations, ["package", "verdict", "source"]],
  ];
}

/** Groups in a canonical order (the order of equal counts and times is not part of the contract). */
export function canonical(groups: AuditGroup[]): AuditGroup[] {
  const id = (g: AuditGroup) => JSON.stringify(Object.entries(g.keys).sort());
  return [...groups].sort((a, b) => id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0);
}
