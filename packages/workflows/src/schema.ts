/**
 * zod schemas of the files the library reads back: per-test fragments and the
 * `workflows.json` twin (both cross a process boundary, so both are validated).
 *
 * @module
 */
import { z } from "zod";
import { conventionsSchema } from "./conventions.ts";
import type {
  DataFlowLink,
  RecordedBody,
  RedactionSettings,
  Workflow,
  WorkflowDocument,
  WorkflowStep,
} from "./types.ts";

const regex = z.string().min(1).refine((source) => {
  try {
    new RegExp(source, "g");
    return true;
  } catch {
    return false;
  }
}, "not a valid regular expression");

/**
 * Schema of a project's redaction extensions (they cross from the runner to
 * the tests in an environment variable and are kept in `workflows.json`).
 *
 * @example
 * ```ts
 * import { redactionSchema } from "./schema.ts";
 * redactionSchema.parse({ keys: ["pin"], patterns: ["acme_[a-z0-9]{12}"], allow: ["author"] });
 * ```
 */
export const redactionSchema: z.ZodType<RedactionSettings> = z.strictObject({
  keys: z.array(z.string().min(1)).optional(),
  patterns: z.array(regex).optional(),
  allow: z.array(z.string().min(1)).optional(),
});

const body: z.ZodType<RecordedBody> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("json"), value: z.unknown() }),
  z.object({ type: z.literal("text"), value: z.string() }),
  z.object({ type: z.literal("omitted"), reason: z.string() }),
]) as z.ZodType<RecordedBody>;

const step: z.ZodType<WorkflowStep> = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("api"),
    method: z.string(),
    path: z.string(),
    route: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    request: body.optional(),
    status: z.number().int(),
    responseHeaders: z.record(z.string(), z.string()).optional(),
    response: body.optional(),
  }),
  z.object({ kind: z.literal("boundary"), domain: z.string(), name: z.string() }),
]);

const link: z.ZodType<DataFlowLink> = z.object({
  from: z.object({ step: z.number().int(), key: z.string() }),
  to: z.object({
    step: z.number().int(),
    location: z.enum(["request body", "query", "path", "request header"]),
    key: z.string(),
  }),
});

/**
 * Schema of one compiled workflow.
 *
 * @example
 * ```ts
 * import { workflowSchema } from "./schema.ts";
 * workflowSchema.safeParse({}).success; // false
 * ```
 */
export const workflowSchema: z.ZodType<Workflow> = z.object({
  id: z.string().min(1),
  name: z.string(),
  intent: z.string(),
  requires: z.array(z.string()).optional(),
  status: z.literal("Verified / Test-Gated"),
  source: z.object({ file: z.string(), test: z.string(), index: z.number().int() }),
  steps: z.array(step),
  dataFlow: z.array(link),
});

/**
 * Schema of `workflows.json`.
 *
 * @example
 * ```ts
 * import { workflowDocumentSchema } from "./schema.ts";
 * workflowDocumentSchema.parse({ format: "workflows/v1", title: "API workflows", workflows: [] });
 * ```
 */
export const workflowDocumentSchema: z.ZodType<WorkflowDocument> = z.object({
  format: z.literal("workflows/v1"),
  title: z.string(),
  conventions: conventionsSchema.optional(),
  redaction: redactionSchema.optional(),
  workflows: z.array(workflowSchema),
});
