/**
 * Sample causes of alerts for tests: a scanner alert row, an approval
 * request.
 *
 * @module
 */
import type { NewApprovalRequest, NewAuditRow } from "../../src/store/types.ts";
import { auditRow } from "./audit_rows.ts";

/** A scanner `CVE_ALERT` row of `jinja2` with this highest score. */
export function cveAlertRow(maxCvss: number): NewAuditRow {
  return auditRow({
    package: "jinja2",
    project: "policyd",
    verdict: "CVE_ALERT",
    denial_category: "DENIAL_CVE_ALERT",
    cve_ids: ["CVE-2024-22195"],
    max_cvss: maxCvss,
    source: "scanner",
  });
}

/** An approval request for `left-pad` from project `web`. */
export function leftPadRequest(overrides: Partial<NewApprovalRequest> = {}): NewApprovalRequest {
  return {
    package: "left-pad",
    version: null,
    project: "web",
    requester: "dev",
    rationale: "padding",
    agent_model: null,
    agent_version: null,
    ...overrides,
  };
}
