/**
 * Problem details as HTTP responses. The problem document and
 * {@link ProblemError} are defined in `src/api/problem.ts` (shared with the
 * dashboards, which do not import `src/http`); rendering, with secrets
 * redacted, is the HTTP layer's.
 *
 * @module
 */
import { PROBLEM_CONTENT_TYPE, type Problem } from "../api/problem.ts";
import { redactValue } from "../log/redact.ts";

export { badRequest, PROBLEM_BASE, type Problem, ProblemError } from "../api/problem.ts";

/** Renders a problem document as a response (secrets redacted). */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(redactValue(problem)), {
    status: problem.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers },
  });
}
