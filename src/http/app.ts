/**
 * The HTTP application factory: middleware (request id, logs, body limit,
 * authentication, call context), one route module per resource, the
 * extension point (`extraRoutes`) through which the composition root mounts
 * the dashboards, and one error handler that maps failures to problem+json.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { CONTEXT_HEADER_NAMES, PROJECT_PATTERN } from "../api/headers.ts";
import { displayHeaderName } from "../api/header_names.ts";
import { CALL_SOURCES } from "../api/enums.ts";
import { API_ROUTES, fullPath, MAX_BODY_BYTES } from "../api/mod.ts";
import { API_BASE, API_PATHS, apiPath } from "../api/paths.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import { ProblemError, problemResponse } from "./problem.ts";
import { sameOriginGuard } from "./middleware/same_origin.ts";
import { rateLimit } from "./middleware/rate_limit.ts";
import { allowedHosts, hostAllowList, hostHeaderCheck } from "./middleware/allowed_hosts.ts";
import { indexFastPath } from "./index_fast_path.ts";
import { errorAnswer } from "./error_answer.ts";
import { bodyBudget } from "./middleware/body_budget.ts";
import { limitFailedAuthentications } from "./middleware/auth_failures.ts";
import { DEFAULT_HTTP_OPTIONS } from "./settings.ts";
import { DEFAULT_GUARD_OPTIONS } from "./guard_settings.ts";
import { evaluateRoutes } from "./routes/evaluate.ts";
import { healthRoutes } from "./routes/health.ts";
import { registryRoutes } from "./routes/registry.ts";
import { reportRoutes } from "./routes/reports.ts";
import { openapiRoutes } from "./routes/openapi.ts";
import { workflowRoutes } from "./routes/workflows.ts";
import { approvalRoutes } from "./routes/approvals.ts";
import { reviewRoutes } from "./routes/review.ts";
import { proposalRoutes } from "./routes/proposals.ts";
import { registryPendingRoutes } from "./routes/registry_pending.ts";
import { webhookRoutes } from "./routes/webhook.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { auditRoutes } from "./routes/audit.ts";
import { alertRoutes } from "./routes/alerts.ts";
import { llmsRoutes, PUBLIC_DOCS_PREFIX } from "./routes/llms.ts";

/** The source header as problems name it. */
const SOURCE_HEADER = displayHeaderName(CONTEXT_HEADER_NAMES.source);

/** Largest accepted request body (SPEC §7), defined by the wire contract. */
export { MAX_BODY_BYTES };

/** Routes that never require authentication (SPEC §15.27): the contracts marked `public`. */
const PUBLIC_API_PATHS = new Set(API_ROUTES.filter((r) => r.public).map(fullPath));

/** Methods whose request bodies no route reads. */
const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

/** GET routes that write (an evaluation is audited): no `*` project there. */
const WRITING_GETS = new Set([apiPath(API_PATHS.evaluate)]);

function header(c: { req: { header(name: string): string | undefined } }, name: string) {
  const value = c.req.header(name)?.trim();
  return value ? value.slice(0, 200) : null;
}

/**
 * Creates the policyd HTTP application.
 *
 * @example
 * ```ts
 * import type { AppDeps } from "./deps.ts";
 * declare const deps: AppDeps; // see buildServer in src/server.ts
 * const app = createApp(deps);
 * const res = await app.request("/api/v1/health");
 * ```
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const http = deps.http ?? DEFAULT_HTTP_OPTIONS;
  const guard = deps.guard ?? DEFAULT_GUARD_OPTIONS;
  const hostAllowed = hostAllowList({ bindHost: http.host, allowedHosts: guard.allowedHosts });
  const authenticator = limitFailedAuthentications(deps.authenticator, {
    perMinute: guard.authFailuresPerMinute,
  });
  const peer = (c: Context<AppEnv>) =>
    deps.remoteAddress?.(c) ?? c.env?.remoteAddr?.hostname ?? null;
  let sequence = 0;
  const requestIdOf = (header: string | null | undefined) =>
    header?.slice(0, 100) ??
      (deps.requestIds
        ? deps.requestIds()
        : `req-${Date.now().toString(36)}-${(++sequence).toString(36)}`);

  app.use("*", async (c, next) => {
    const requestId = requestIdOf(c.req.header("x-request-id"));
    const log = deps.log.child({ request_id: requestId });
    c.set("requestId", requestId);
    c.set("log", log);
    c.set("bodyReadTimeoutMs", http.bodyReadTimeoutMs);
    // The access line costs a clock read, a JSON document and a write: skip all
    // three when the level filters it out (docs/performance.md).
    const accessLog = deps.accessLog !== false && log.enabled("info");
    const started = accessLog ? performance.now() : 0;
    // Set before the handler runs, so the response is built with it; a header
    // added afterwards makes Hono copy the finished response (docs/performance.md).
    // Responses built outside the context (the error handler's) get it after.
    c.header("x-request-id", requestId);
    await next();
    if (c.res.headers.get("x-request-id") !== requestId) c.header("x-request-id", requestId);
    if (accessLog) {
      log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
    }
  });

  // Before anything else reads the request: a rebound Host reaches nothing (issue 34).
  app.use("*", allowedHosts(hostAllowed));

  app.use("*", sameOriginGuard({ allowedOrigins: http.allowedOrigins, hostAllowed }));

  // Authentication and the call context, for the API and the dashboards.
  app.use("*", async (c, next) => {
    const isPublic = PUBLIC_API_PATHS.has(c.req.path) || c.req.path.startsWith("/static/") ||
      c.req.path.startsWith(PUBLIC_DOCS_PREFIX);
    if (!isPublic) {
      const identity = await authenticator.authenticate({
        headers: c.req.raw.headers,
        remoteAddress: peer(c),
      });
      c.set("identity", identity);
    }
    // Not truncated like the other headers: an over-long project name is refused, never cut.
    const project = c.req.query("project")?.trim() ||
      c.req.header(CONTEXT_HEADER_NAMES.project)?.trim() ||
      "default";
    // `*` (every project) only where a route reads across projects; never on writes.
    const readsAll = project === "*" && c.req.method === "GET" && !WRITING_GETS.has(c.req.path);
    if (!readsAll && !PROJECT_PATTERN.test(project)) {
      throw new ProblemError(
        400,
        "invalid-request",
        `invalid project name "${project.slice(0, 60)}"`,
        {
          errors: [{
            path: "project",
            message: "letters, digits and ._-@/:+ only, 1–200 characters; " +
              "`*` only on reads across projects",
          }],
        },
      );
    }
    const source = header(c, CONTEXT_HEADER_NAMES.source) ?? "api";
    if (!(CALL_SOURCES as readonly string[]).includes(source)) {
      throw new ProblemError(400, "invalid-request", `invalid ${SOURCE_HEADER} "${source}"`, {
        errors: [{
          path: SOURCE_HEADER,
          message: `expected one of ${CALL_SOURCES.join(", ")}`,
        }],
      });
    }
    c.set("context", {
      project,
      requester: c.get("identity")?.id ?? "anonymous",
      agent_model: header(c, CONTEXT_HEADER_NAMES.agentModel),
      agent_version: header(c, CONTEXT_HEADER_NAMES.agentVersion),
      source,
    });
    await next();
  });

  // Off (0) is the default: then no request pays for a middleware that does nothing.
  if (http.rateLimitPerMinute > 0) {
    app.use("*", rateLimit({ perMinute: http.rateLimitPerMinute, peer }));
  }

  // A body is read only now, after authentication and the rate limit, within
  // its size and deadline, chunked or not (issue 34). GET and HEAD carry no
  // body we read: looking for one makes the runtime build a body stream per
  // request (docs/performance.md).
  const limitBody = bodyBudget({ maxBytes: MAX_BODY_BYTES, timeoutMs: http.bodyReadTimeoutMs });
  app.use("*", (c, next) => BODYLESS_METHODS.has(c.req.method) ? next() : limitBody(c, next));

  app.route(API_BASE, healthRoutes(deps));
  app.route(API_BASE, evaluateRoutes(deps));
  app.route(API_BASE, registryRoutes(deps));
  app.route(API_BASE, reportRoutes(deps));
  app.route(API_BASE, openapiRoutes(deps));
  app.route(API_BASE, workflowRoutes());
  app.route(API_BASE, approvalRoutes(deps));
  app.route(API_BASE, registryPendingRoutes(deps));
  app.route(API_BASE, proposalRoutes(deps));
  app.route(API_BASE, reviewRoutes(deps));
  app.route(API_BASE, webhookRoutes(deps));
  app.route("/", mcpRoutes(deps));
  app.route(API_BASE, auditRoutes(deps));
  app.route(API_BASE, alertRoutes(deps));
  app.route("/", llmsRoutes());
  for (const mount of deps.extraRoutes ?? []) mount(app);

  app.notFound((c) =>
    problemResponse({
      type: "https://policyd.dev/problems/not-found",
      title: "Not Found",
      status: 404,
      detail: `no route for ${c.req.method} ${c.req.path}`,
    })
  );

  app.onError((error, c) => errorAnswer(error, c.get("log") ?? deps.log, c.get("requestId")));

  // Warm index pages skip the router and middleware, keeping the checks that
  // apply to them (`index_fast_path.ts`); not while the rate limit is on.
  if (deps.indexPages && http.rateLimitPerMinute <= 0 && !deps.remoteAddress) {
    const fast = indexFastPath({
      ...deps.indexPages,
      authenticator,
      hostAllowed: hostHeaderCheck(hostAllowed),
      requestIdOf,
      log: deps.log,
      accessLog: deps.accessLog !== false && deps.log.enabled("info"),
    });
    const dispatch = app.fetch;
    app.fetch = (request, env, executionCtx) => {
      const answer = fast(request, env);
      if (answer === null) return dispatch(request, env, executionCtx);
      return answer.then((response) => response ?? dispatch(request, env, executionCtx));
    };
  }

  return app;
}
