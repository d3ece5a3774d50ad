/**
 * The one error shape of the API: RFC 9457 problem details, served as
 * `application/problem+json` for every status ≥ 400. Routes (and the
 * dashboards' non-HTML answers) throw {@link ProblemError}; the app's error
 * handler renders it (`problemResponse` in `src/http/problem.ts`, which
 * redacts secrets).
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

/** Members of a problem document. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ path: string; message: string }>;
  [extra: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** Base of problem type URIs. */
export const PROBLEM_BASE = "https://policyd.dev/problems/";

/** An expected failure that becomes a problem+json response. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    detail: string,
    readonly extra: Partial<Problem> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "ProblemError";
  }

  /** The problem document. */
  toProblem(): Problem {
    return {
      type: PROBLEM_BASE + this.slug,
      title: TITLES[this.status] ?? "Error",
      status: this.status,
      detail: this.message,
      ...this.extra,
    };
  }
}

/** Shorthand for a 400 with path-qualified errors. */
export function badRequest(
  detail: string,
  errors?: Array<{ path: string; message: string }>,
): ProblemError {
  return new ProblemError(400, "invalid-request", detail, errors ? { errors } : {});
}
