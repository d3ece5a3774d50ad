/**
 * The fast path for index pages (issue 28 point 8): an installer's
 * `GET /simple/{name}/` or `/p/{project}/simple/{name}/` of a page already
 * decided and rendered is answered before the app's router and middleware
 * stack, with the checks of that stack that apply to it, in its order: the
 * `Host` allow-list, authentication (with the failed-login limit), the
 * project's name, then the page; the same `x-request-id` and access line.
 *
 * Anything else is left to the app (the path answers `null`): another method
 * or route, a query string, a percent-encoded or non-normalised name, the
 * project or source header (the app validates them), a `Host` the app
 * refuses with 421, an `Accept` it answers 406, a page that is not a plain
 * 200 or 304 (denied, not found, upstream unavailable: the app renders
 * those), and every request while the rate limit is on or the peer address
 * comes from elsewhere than the socket. So every answer is the one the app
 * gives, only cheaper.
 *
 * @module
 */
import { CONTEXT_HEADER_NAMES, PROJECT_PATTERN } from "../api/headers.ts";
import type { Authenticator } from "../auth/types.ts";
import { isValidName } from "../core/names.ts";
import { matchesIfNoneMatch } from "../index/etag.ts";
import { negotiate, type SimpleFormat } from "../index/negotiate.ts";
import { SIMPLE_JSON } from "../index/page.ts";
import type { PageRenderer } from "../index/rendered.ts";
import type { IndexService } from "../index/service.ts";
import type { Logger } from "../log/logger.ts";
import { errorAnswer } from "./error_answer.ts";

/** What the fast path needs. */
export interface IndexFastPathDeps {
  index: IndexService;
  render: PageRenderer;
  /** The app's authenticator, failed-login limit included. */
  authenticator: Authenticator;
  /** Whether the app answers to a `Host` header value (the 421 check). */
  hostAllowed: (host: string) => boolean;
  /** The request id of a request: its `x-request-id`, else a new one (as the app assigns). */
  requestIdOf: (header: string | null) => string;
  log: Logger;
  /** Whether the app writes access lines. */
  accessLog: boolean;
}

/** Answers a request, or null to leave it to the app. */
export type IndexFastPath = (
  request: Request,
  env: { remoteAddr?: { hostname: string } } | undefined,
) => Promise<Response | null> | null;

/** `/simple/{name}/` or `/p/{project}/simple/{name}/`, path only. */
const PAGE_PATH = /^(?:\/p\/([^/%]+))?\/simple\/([A-Za-z0-9._-]{1,200})\/$/;

/** What `normalizeName` would change in a name of `PAGE_PATH` (upper case, `_`, `.`, runs of `-`). */
const NOT_NORMAL = /[A-Z_.]|--/;

/** Whether a name of letters, digits and `._-` is its own PEP 503 normal form (no regex replace). */
export function isNormalName(name: string): boolean {
  return !NOT_NORMAL.test(name);
}

/** Answers of `negotiate`, per `Accept` header as sent (bounded). */
function rememberedNegotiate(): (accept: string | null) => SimpleFormat | null {
  const answers = new Map<string, SimpleFormat | null>();
  return (accept) => {
    const key = accept ?? "";
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = negotiate(accept ?? undefined);
      if (answers.size >= 256) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}

/**
 * Creates the fast path.
 *
 * @example
 * ```ts ignore
 * const fast = indexFastPath(deps);
 * const answer = (await fast(request, env)) ?? (await app.fetch(request, env));
 * ```
 */
export function indexFastPath(deps: IndexFastPathDeps): IndexFastPath {
  const formatOf = rememberedNegotiate();

  async function answer(
    request: Request,
    path: string,
    project: string,
    name: string,
    format: SimpleFormat,
    remoteAddress: string | null,
  ): Promise<Response | null> {
    const started = deps.accessLog ? performance.now() : 0;
    const requestId = deps.requestIdOf(request.headers.get("x-request-id"));
    let response: Response;
    try {
      await deps.authenticator.authenticate({ headers: request.headers, remoteAddress });
      if (!PROJECT_PATTERN.test(project)) return null;
      const page = await deps.index.page(name);
      if (page.status !== "ok" || page.decided.denied) return null;
      const form = deps.render(page.decided, name, format === SIMPLE_JSON);
      const headers = { vary: "Accept", etag: form.etag, "x-request-id": requestId };
      response = matchesIfNoneMatch(request.headers.get("if-none-match") ?? undefined, form.etag)
        ? new Response(null, { status: 304, headers })
        : new Response(form.body, {
          status: 200,
          headers: {
            "content-type": format === SIMPLE_JSON ? format : `${format}; charset=utf-8`,
            ...headers,
          },
        });
    } catch (error) {
      response = errorAnswer(error, deps.log.child({ request_id: requestId }), requestId);
      response.headers.set("x-request-id", requestId);
    }
    if (deps.accessLog) {
      // The app's line: its request logger's fields, then these (the same JSON).
      deps.log.info("request", {
        request_id: requestId,
        method: "GET",
        path,
        status: response.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
    }
    return response;
  }

  return (request, env) => {
    if (request.method !== "GET") return null;
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    if (start < 0 || url.includes("?", start)) return null;
    const path = url.slice(start);
    const match = PAGE_PATH.exec(path);
    if (match === null) return null;
    const name = match[2];
    // The app's name rule (PEP 508, core/names.ts) and PEP 503's normal form; anything else goes to the app.
    if (!isNormalName(name) || !isValidName(name)) return null;
    const headers = request.headers;
    if (headers.has(CONTEXT_HEADER_NAMES.project) || headers.has(CONTEXT_HEADER_NAMES.source)) {
      return null;
    }
    const host = headers.get("host") ?? new URL(url).host;
    if (!deps.hostAllowed(host)) return null;
    const format = formatOf(headers.get("accept"));
    if (format === null) return null;
    const project = match[1] ?? "default";
    return answer(request, path, project, name, format, env?.remoteAddr?.hostname ?? null);
  };
}
