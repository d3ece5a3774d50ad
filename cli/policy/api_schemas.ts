/**
 * The zod readings of the API's answers as the client checks them, loaded on
 * first use only: the evaluation's through `evaluation_schema.ts` when its
 * generated validator rejects an answer, the others (tolerant: a newer server
 * may add fields) when a command needs them. Nothing here loads zod at import.
 *
 * @module
 */
import type { z } from "zod";
import type { PackageRuleSchema } from "../../src/api/registry.ts";
import type { BatchSchema, EvaluationSchema } from "./evaluation_schema.ts";
import { lazyImport } from "./lazy_import.ts";

/**
 * One evaluation; `transport_error` is set on fail-open synthetic results,
 * `offline_registry_version` on denials decided from the cached registry
 * while the server was unreachable (`offline_registry.ts`).
 */
export type EvaluationResult = z.infer<typeof EvaluationSchema> & {
  transport_error?: boolean;
  offline_registry_version?: string;
};

/** `evaluation_schema.ts`, which loads zod: imported only to word a rejected answer. */
function evaluationSchemas() {
  return lazyImport<typeof import("./evaluation_schema.ts")>(
    new URL("./evaluation_schema.ts", import.meta.url),
  );
}

/** The zod reading of an evaluation, loaded only when its generated validator rejects one. */
export async function evaluationSchema(): Promise<typeof EvaluationSchema> {
  return (await evaluationSchemas()).EvaluationSchema;
}

/** The zod reading of a batch answer, loaded only when its generated validator rejects one. */
export async function batchSchema(): Promise<typeof BatchSchema> {
  return (await evaluationSchemas()).BatchSchema;
}

/** The tolerant readings of the other contracts, built from their modules. */
function otherSchemas(
  { z }: typeof import("zod"),
  approvals: typeof import("../../src/api/approvals.ts"),
  reports: typeof import("../../src/api/reports.ts"),
  service: typeof import("../../src/api/service.ts"),
) {
  const { ApprovalListSchema, ApprovalReceiptSchema } = approvals;
  const { SecurityReportSchema } = reports;
  return {
    approval: ApprovalReceiptSchema.partial().required({ id: true, package: true })
      .extend({ status: z.string() }).loose(),
    pending: z.object({
      items: z.array(
        ApprovalListSchema.shape.items.element.partial().required({ package: true }).loose(),
      ),
    }),
    security: SecurityReportSchema.partial().required({ total_denials: true }).extend({
      top_packages: SecurityReportSchema.shape.top_packages.default([]),
    }).loose(),
    health: service.HealthSchema.partial().extend({ status: z.string() }).loose(),
    filedMessage: approvals.approvalFiledMessage,
    proposal: z.object({
      result: z.object({ backend: z.string(), status: z.string(), detail: z.string() }).loose(),
    }),
  };
}

/** The loaded readings of the answers beside the evaluation's. */
export type OtherSchemas = ReturnType<typeof otherSchemas>;
let loadedSchemas: Promise<OtherSchemas> | undefined;

/** Loads the contracts beyond the evaluation's once, on first use. */
export function schemas(): Promise<OtherSchemas> {
  return loadedSchemas ??= Promise.all([
    lazyImport<typeof import("zod")>("zod"),
    lazyImport<typeof import("../../src/api/approvals.ts")>(
      new URL("../../src/api/approvals.ts", import.meta.url),
    ),
    lazyImport<typeof import("../../src/api/reports.ts")>(
      new URL("../../src/api/reports.ts", import.meta.url),
    ),
    lazyImport<typeof import("../../src/api/service.ts")>(
      new URL("../../src/api/service.ts", import.meta.url),
    ),
  ]).then(([zod, approvals, reports, service]) => otherSchemas(zod, approvals, reports, service));
}

/** A created approval request. */
export type ApprovalReceipt = z.infer<OtherSchemas["approval"]>;
/** What the server's proposer did with an operator's rule. */
export type ProposalOutcome = z.infer<OtherSchemas["proposal"]>["result"];
/** A rule as `policy approve` sends it (the server validates it). */
export type ProposedRuleInput = z.input<typeof PackageRuleSchema>;
/** Pending approval requests collapsed per package. */
export type PendingApprovals = z.infer<OtherSchemas["pending"]>;
/** The CVE-driven denial rollup. */
export type SecurityReport = z.infer<OtherSchemas["security"]>;
/** The server's health document. */
export type Health = z.infer<OtherSchemas["health"]>;
