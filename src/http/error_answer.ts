/**
 * The answer to an error thrown while handling a request: problem+json for
 * the known ones (a {@link ProblemError}, a failed or unimplemented
 * authentication, a client that went away mid-body), a logged 500 quoting
 * the request id for anything else. The app's error handler and its fast
 * path for index pages answer through it.
 *
 * @module
 */
import { AuthError, AuthNotImplementedError } from "../auth/types.ts";
import type { Logger } from "../log/logger.ts";
import { ProblemError, problemResponse } from "./problem.ts";
import { isClientAbort } from "./validate.ts";

/**
 * The response for `error`; `log` receives what is not the client's doing.
 *
 * @example
 * ```ts
 * import { silentLogger } from "../log/logger.ts";
 * import { ProblemError } from "./problem.ts";
 * errorAnswer(new ProblemError(400, "invalid-request", "no"), silentLogger, "req-1").status; // 400
 * ```
 */
export function errorAnswer(error: unknown, log: Logger, requestId: string | undefined): Response {
  if (error instanceof ProblemError) {
    return problemResponse(error.toProblem(), error.headers);
  }
  if (error instanceof AuthNotImplementedError) {
    return problemResponse(new ProblemError(501, "not-implemented", error.message).toProblem());
  }
  if (error instanceof AuthError) {
    return problemResponse(
      {
        type: "https://policyd.dev/problems/unauthorized",
        title: "Unauthorized",
        status: 401,
        detail: "authentication required",
      },
      { "www-authenticate": error.challenge },
    );
  }
  if (isClientAbort(error)) {
    // The client went away mid-body: nobody reads this answer, and it is not a server fault.
    log.info("client aborted the request", { error: String(error) });
    return problemResponse(
      new ProblemError(400, "client-aborted", "the request body was cut short").toProblem(),
    );
  }
  log.error("unhandled error", { error: String(error), stack: (error as Error)?.stack });
  return problemResponse({
    type: "https://policyd.dev/problems/internal-error",
    title: "Internal Server Error",
    status: 500,
    detail: `internal error; quote request id ${requestId ?? "unknown"} when reporting it`,
  });
}
