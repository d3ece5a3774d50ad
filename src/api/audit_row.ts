/**
 * The audit row as the API answers it (SPEC §8): every column of the audit
 * log, for `GET /audit` and the reports' row lists. The store's `AuditRow`
 * type is checked against it (`src/store/audit_types.ts`).
 *
 * @module
 */
import { z } from "zod";
import { CALL_SOURCES, DENIAL_CATEGORIES, REGISTRY_STATUSES, VERDICTS } from "../core/types.ts";
import { AppliedExceptionSchema, DecisionDataSchema, ThreatSchema } from "./evaluate.ts";

/** Verdicts an audit row can carry: evaluations and scanner alerts. */
export const AUDIT_VERDICTS = [...VERDICTS, "CVE_ALERT"] as const;

/** Denial categories an audit row can carry: evaluations and scanner alerts. */
export const AUDIT_CATEGORIES = [...DENIAL_CATEGORIES, "DENIAL_CVE_ALERT"] as const;

/** One audit row: a decision (or a scanner alert) with what it knew. */
export const AuditRowSchema = z.object({
  id: z.number().int(),
  ts: z.string().describe("ISO-8601 UTC"),
  package: z.string(),
  version: z.string().nullable(),
  license: z.string().nullable(),
  verdict: z.enum(AUDIT_VERDICTS),
  project: z.string(),
  requester: z.string().describe("the caller's identity (`anonymous` in single-user mode)"),
  agent_model: z.string().nullable(),
  agent_version: z.string().nullable(),
  source: z.string().describe(`where the call came from: ${CALL_SOURCES.join(", ")}, or scanner`),
  denial_category: z.enum(AUDIT_CATEGORIES).nullable(),
  cve_ids: z.array(z.string()),
  max_cvss: z.number().nullable(),
  registry_status: z.enum(REGISTRY_STATUSES).nullable(),
  registry_version: z.string().nullable(),
  license_raw: z.string().nullable(),
  reason: z.string(),
  data: DecisionDataSchema.nullable().optional().describe(
    "what the decision knew; null for scanner alerts and rows written before it was recorded",
  ),
  exceptions_applied: z.array(AppliedExceptionSchema).optional(),
  threats: z.array(ThreatSchema).optional(),
});

/** An audit row as the API answers it. */
export type AuditRowDocument = z.infer<typeof AuditRowSchema>;
