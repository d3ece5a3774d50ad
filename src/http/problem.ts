/**
 * Problem details as HTTP responses. The problem document and
 * {@link ProblemError} are defined in `src/api/problem.ts` (shared with the
 * dashboards, which do not import `src/http`); rendering, with secrets
 * redacted, is the HTTP layer's.
 *
 * @module
 */
import { type Problem, PROBLEM_CONTENT_TYPE } from "../api/problem.ts";
import { redactValue } from "../log/redact.ts";

export { badRequest, type Problem, PROBLEM_BASE, ProblemError } from "../api/problem.ts";

/** Renders a problem document as a response (secrets redacted). */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(redactValue(problem)), {
    status: problem.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers },
  });
}
