/**
 * The one error shape of the API: RFC 9457 problem details, served as
 * `application/problem+json` for every status ≥ 400.
 *
 * @module
 */
import { z } from "zod";

/** One field-level error inside a problem. */
export const FieldErrorSchema = z.object({
  path: z.string().describe("the offending field, e.g. `packages[3].package` or `project`"),
  message: z.string(),
});

/** A problem document (RFC 9457). */
export const ProblemSchema = z.looseObject({
  type: z.string().describe("`https://policyd.dev/problems/<slug>`"),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().describe("a human-readable explanation of this occurrence"),
  errors: z.array(FieldErrorSchema).optional(),
});

/** A problem document. */
export type ProblemDocument = z.infer<typeof ProblemSchema>;

/** Media type of error responses. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";
