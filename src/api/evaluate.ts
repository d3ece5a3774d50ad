/**
 * Contracts of `GET /evaluate` and `POST /evaluate/batch`.
 *
 * @module
 */
import { z } from "zod";
import {
  DATA_STATUSES,
  type Decision,
  DENIAL_CATEGORIES,
  type Evaluation,
  REGISTRY_STATUSES,
  VERDICTS,
} from "../core/types.ts";
import { THREAT_KINDS } from "./enums.ts";
import { defineRoute, type Holds, type SameType } from "./contract.ts";
import { PackageSpecSchema } from "./names.ts";
import { API_PATHS } from "./paths.ts";
import { MAX_BATCH } from "./evaluate_limits.ts";

export {
  DEFAULT_CLIENT_TIMEOUT_MS,
  DEFAULT_LOOKUP_TIMEOUT_MS,
  LOOKUP_BOUND_MS,
  MAX_BATCH,
} from "./evaluate_limits.ts";

/** Query of `GET /evaluate`. */
export const EvaluateQuerySchema = z.object({
  package: PackageSpecSchema
    .describe(
      "PEP 508 name, optionally pinned or with a range: `requests`, `requests==2.31.0`, " +
        "`urllib3<2` (judged at the newest non-yanked release it admits, reported as `version`)",
    ),
  version: z.string().optional().describe("PEP 440 version"),
  project: z.string().optional().describe(
    "project name (or header X-Policy-Project; default `default`)",
  ),
});

/** One vulnerability of an evaluation. */
export const ReportedCveSchema = z.object({
  id: z.string().describe("the CVE alias when there is one, else the record's own id"),
  score: z.number().nullable().describe("highest CVSS base score, null when none"),
  aliases: z.array(z.string()),
  summary: z.string().optional(),
});

/** Status and fetch time of one lookup behind a decision. */
export const DataSourceSchema = z.object({
  status: z.enum(DATA_STATUSES).describe(
    "fresh (fetched for this decision), cached, unavailable (lookup failed or timed out), " +
      "skipped (a registry rule decided without the lookup)",
  ),
  fetched_at: z.string().nullable().describe(
    "ISO-8601 time of the upstream fetch (kept by the cache); null when unavailable or skipped",
  ),
});

/** What a decision knew. */
export const DecisionDataSchema = z.object({
  vulnerabilities: DataSourceSchema,
  license: DataSourceSchema,
});

/** An exception that waived findings of a decision. */
export const AppliedExceptionSchema = z.object({
  package: z.string(),
  vulnerabilities: z.array(z.string()).optional(),
  licenses: z.array(z.string()).optional(),
  reason: z.string(),
  expires: z.string().describe("YYYY-MM-DD"),
});

/** One supply-chain threat an evaluation found (SPEC §17.2). */
export const ThreatSchema = z.object({
  kind: z.enum(THREAT_KINDS).describe(
    "malicious (a malicious-package advisory), not_found (PyPI has no such project or release), " +
      "typosquat (a look-alike of a popular project), new_project (first released recently), " +
      "yanked (the release is yanked)",
  ),
  id: z.string().optional().describe("the advisory id of a malicious finding (`MAL-…`)"),
  detail: z.string().describe("what was found, in one sentence"),
  similar_to: z.array(z.string()).optional().describe(
    "the popular project a typosquat imitates, or up to 3 names a missing project may have meant",
  ),
});

/** One evaluation as the API returns it (SPEC §7). */
export const EvaluationSchema = z.object({
  package: z.string(),
  version: z.string().nullable(),
  verdict: z.enum(VERDICTS),
  reason: z.string(),
  denial_category: z.enum(DENIAL_CATEGORIES).nullable(),
  registry_status: z.enum(REGISTRY_STATUSES).nullable(),
  replacement: z.string().nullable(),
  license: z.string().nullable(),
  license_raw: z.string().nullable(),
  latest_version: z.string().nullable(),
  cves: z.array(ReportedCveSchema),
  max_cvss: z.number().nullable(),
  data: DecisionDataSchema,
  exceptions_applied: z.array(AppliedExceptionSchema),
  threats: z.array(ThreatSchema).describe("supply-chain threats found; empty when none"),
  registry_version: z.string(),
  audit_id: z.number().int(),
});

/** One evaluation: the contract's shape, which is the core's `Evaluation` (checked below). */
export type EvaluationDocument = z.infer<typeof EvaluationSchema>;

/**
 * The core's `Decision`/`Evaluation` (pure, no zod) and this contract are one
 * shape: these lines stop compiling when either changes without the other,
 * so OpenAPI always describes every field a real answer has.
 */
export type EvaluationIsCoreShape = Holds<SameType<EvaluationDocument, Evaluation>>;
/** The decision part of an evaluation is the core's `Decision` (see {@link EvaluationIsCoreShape}). */
export type DecisionIsCoreShape = Holds<
  SameType<Omit<EvaluationDocument, "registry_version" | "audit_id">, Decision>
>;

/** One item of a batch request. */
export const BatchItemSchema = z.object({
  package: PackageSpecSchema,
  version: z.string().optional().nullable(),
});

/** Body of `POST /evaluate/batch`. */
export const BatchRequestSchema = z.object({
  packages: z
    .array(BatchItemSchema)
    .min(1, { message: "at least one package is required" })
    .max(MAX_BATCH, { message: `at most ${MAX_BATCH} packages per batch` }),
});

/** Answer of `POST /evaluate/batch`: results in request order. */
export const BatchResponseSchema = z.object({ results: z.array(EvaluationSchema) });

/** `GET /evaluate`. */
export const evaluateRoute = defineRoute("get", API_PATHS.evaluate, {
  summary: "Evaluate one package (optionally at a version); writes one audit row.",
  query: EvaluateQuerySchema,
  responses: { 200: { description: "the evaluation", schema: EvaluationSchema } },
  errors: { 400: "invalid package name, version or project" },
});

/** `POST /evaluate/batch`. */
export const evaluateBatchRoute = defineRoute("post", API_PATHS.evaluateBatch, {
  summary: `Evaluate up to ${MAX_BATCH} packages; one audit row each.`,
  body: { contentType: "application/json", schema: BatchRequestSchema },
  responses: {
    200: {
      description: "one evaluation per package, in request order",
      schema: BatchResponseSchema,
    },
  },
  errors: { 400: `invalid body, a bad item, or more than ${MAX_BATCH} packages` },
});
