/**
 * `AgentTestClient`: drives an API under test and records each call made
 * inside a `workflow()` as one step.
 *
 * @module
 */
import { AgentResponse } from "./agent_response.ts";
import { decodeBody } from "./body.ts";
import { currentRecorder } from "./recorder.ts";
import { matchRoute, type RouteInfo } from "./route_template.ts";
import type { QueryParams } from "./types.ts";

/** A plain fetch handler: `(Request) => Response`. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** The structural shape of a Hono app (or anything with a compatible `fetch`). */
export interface FetchApp {
  // `never[]` lets Hono's `fetch(request, env?, executionCtx?)` satisfy the shape.
  fetch: (request: Request, ...rest: never[]) => Response | Promise<Response>;
  routes?: readonly RouteInfo[];
}

/** What a client talks to: an app, a handler, or the base URL of a running server. */
export type ClientTarget = FetchApp | FetchHandler | string | URL;

/** A query value; arrays become repeated parameters, `undefined` is skipped. */
export type QueryValue = string | number | boolean;

/** Options of one request. Headers are sent but never recorded. */
export interface RequestOptions {
  json?: unknown;
  query?: Record<string, QueryValue | QueryValue[] | undefined>;
  headers?: HeadersInit;
}

/** Options of the client itself. */
export interface AgentTestClientOptions {
  /** Headers sent with every request (for example an API key). */
  headers?: HeadersInit;
  /** Bindings passed as the second argument of `app.fetch` (Hono `c.env`). */
  env?: unknown;
}

/**
 * A test client for HTTP APIs whose calls become workflow steps. The target is
 * a Hono app (its `routes` give route templates), a `(Request) => Response`
 * handler, or the base URL of a real server reached with `fetch`. Calls made
 * outside a `workflow()` work the same but are not recorded.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { AgentTestClient } from "./agent_test_client.ts";
 * const app = new Hono().get("/items/:id", (c) => c.json({ id: c.req.param("id") }));
 * const client = new AgentTestClient(app);
 * const res = await client.get("/items/42", { query: { expand: true } });
 * res.status; // 200
 * res.json(); // { id: "42" }
 * ```
 */
export class AgentTestClient {
  readonly #target: ClientTarget;
  readonly #options: AgentTestClientOptions;

  constructor(target: ClientTarget, options: AgentTestClientOptions = {}) {
    this.#target = target;
    this.#options = options;
  }

  /** Sends a GET request. */
  get(path: string, options?: RequestOptions): Promise<AgentResponse> {
    return this.request("GET", path, options);
  }

  /** Sends a POST request. */
  post(path: string, options?: RequestOptions): Promise<AgentResponse> {
    return this.request("POST", path, options);
  }

  /** Sends a PUT request. */
  put(path: string, options?: RequestOptions): Promise<AgentResponse> {
    return this.request("PUT", path, options);
  }

  /** Sends a PATCH request. */
  patch(path: string, options?: RequestOptions): Promise<AgentResponse> {
    return this.request("PATCH", path, options);
  }

  /** Sends a DELETE request. */
  delete(path: string, options?: RequestOptions): Promise<AgentResponse> {
    return this.request("DELETE", path, options);
  }

  /** Sends a request with any method; the named methods call this. */
  async request(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<AgentResponse> {
    // Reserve the step before any await so concurrent calls keep start order.
    const fill = currentRecorder()?.reserve();
    const local = new URL(path, "http://localhost");
    appendQuery(local.searchParams, options.query);
    const headers = new Headers(this.#options.headers);
    new Headers(options.headers).forEach((value, name) => headers.set(name, value));
    const explicit = Object.fromEntries(headers);
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const request = new Request(this.#url(local), { method: method.toUpperCase(), headers, body });
    const response = await AgentResponse.from(await this.#dispatch(request));
    if (fill) {
      const match = this.#routes()
        ? matchRoute(this.#routes()!, request.method, local.pathname)
        : undefined;
      fill({
        kind: "api",
        method: request.method,
        path: local.pathname,
        route: match?.route,
        params: match?.params,
        query: toQueryParams(local.searchParams),
        request: options.json === undefined ? undefined : { type: "json", value: options.json },
        headers: explicit,
        status: response.status,
        responseHeaders: pickHeaders(response.headers, RECORDED_RESPONSE_HEADERS),
        response: decodeBody(response.bytes, response.headers.get("content-type")),
      });
    }
    return response;
  }

  #url(local: URL): string {
    const target = this.#target;
    if (typeof target !== "string" && !(target instanceof URL)) return local.href;
    const base = String(target).replace(/\/+$/, "");
    return base + local.pathname + local.search;
  }

  #routes(): readonly RouteInfo[] | undefined {
    const target = this.#target;
    return typeof target === "object" && !(target instanceof URL) ? target.routes : undefined;
  }

  #dispatch(request: Request): Response | Promise<Response> {
    const target = this.#target;
    if (typeof target === "string" || target instanceof URL) return fetch(request);
    if (typeof target === "function") return target(request);
    const appFetch = target.fetch as (
      request: Request,
      env?: unknown,
    ) => Response | Promise<Response>;
    return appFetch.call(target, request, this.#options.env);
  }
}

/** Response headers published with a step: the ones that tell a caller what to do next. */
export const RECORDED_RESPONSE_HEADERS = ["www-authenticate", "location", "retry-after", "allow"];

function pickHeaders(
  headers: Headers,
  names: readonly string[],
): Record<string, string> | undefined {
  const picked = names.flatMap((name) => {
    const value = headers.get(name);
    return value === null ? [] : [[name, value] as const];
  });
  return picked.length === 0 ? undefined : Object.fromEntries(picked);
}

function appendQuery(params: URLSearchParams, query: RequestOptions["query"]): void {
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
}

function toQueryParams(params: URLSearchParams): QueryParams | undefined {
  const out: QueryParams = {};
  for (const [name, value] of params) {
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
