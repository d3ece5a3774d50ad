/**
 * RFC 9457 problem details: the one error shape of the API. Routes throw
 * {@link ProblemError}; the app's error handler renders it.
 *
 * @module
 */

import { redactValue } from "../log/redact.ts";

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
  408: "Request Timeout",
  413: "Content Too Large",
  415: "Unsupported Media Type",
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

/** Renders a problem document as a response. */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(redactValue(problem)), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

/** Shorthand for a 400 with path-qualified errors. */
export function badRequest(
  detail: string,
  errors?: Array<{ path: string; message: string }>,
): ProblemError {
  return new ProblemError(400, "invalid-request", detail, errors ? { errors } : {});
}
