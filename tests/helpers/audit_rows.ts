/**
 * Audit rows for seeding stores in tests.
 *
 * @module
 */
import type { NewAuditRow } from "../../src/store/types.ts";

/** An ALLOWED row for package `x` in project `alpha`, with `overrides` applied. */
export function auditRow(overrides: Partial<NewAuditRow> = {}): NewAuditRow {
  return {
    package: "x",
    version: null,
    license: null,
    verdict: "ALLOWED",
    project: "alpha",
    requester: "local",
    agent_model: null,
    agent_version: null,
    source: "api",
    denial_category: null,
    cve_ids: [],
    max_cvss: null,
    registry_status: null,
    registry_version: "2026.11.21",
    license_raw: null,
    reason: "seeded",
    ...overrides,
  };
}
