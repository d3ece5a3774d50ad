/**
 * The shape of one route's wire contract: its request (query, path
 * parameters, body), its responses and its error cases, all as zod schemas.
 * Routes validate with these schemas, the OpenAPI document is generated from
 * them, and the client and the dashboards parse with them.
 *
 * @module
 */
import type { z } from "zod";
import { API_BASE } from "./paths.ts";

/** Largest accepted request body in bytes (SPEC §7); larger bodies are `413`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** One documented response of a route. */
export interface ResponseContract {
  description: string;
  /** Body schema; error statuses (≥ 400) default to the problem document. */
  schema?: z.ZodType;
  /** Media type; `application/json` by default, `application/problem+json` for errors. */
  contentType?: string;
}

/** The contract of one route. */
export interface RouteContract {
  method: "get" | "post";
  /** Hono-style path relative to {@link RouteContract.base}, e.g. `/approval-requests/:id`. */
  path: string;
  /** Mount point: `/api/v1` (default) or the server root (`""`). */
  base?: "/api/v1" | "";
  summary: string;
  description?: string;
  /** Only members of `OPERATOR_GROUP` may call it in org mode. */
  operator?: boolean;
  /** Answered without authentication. */
  public?: boolean;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: { contentType: string; schema: z.ZodType; alternatives?: Record<string, z.ZodType> };
  responses: Record<number, ResponseContract>;
}

/** How a route is declared: its contract without method and path, error cases apart. */
export interface RouteSpec extends Omit<RouteContract, "method" | "path"> {
  /** Error cases by status, each answered with a problem document: when it happens. */
  errors?: Record<number, string>;
}

/**
 * Declares the contract of the route `method path`; each of `spec.errors`
 * becomes a response whose body is the problem document.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const route = defineRoute("get", "/things/:id", {
 *   summary: "One thing.",
 *   params: z.object({ id: z.coerce.number().int() }),
 *   responses: { 200: { description: "the thing", schema: z.object({ id: z.number() }) } },
 *   errors: { 400: "invalid id", 404: "no such thing" },
 * });
 * route.responses[404]; // { description: "no such thing" }
 * ```
 */
export function defineRoute(
  method: RouteContract["method"],
  path: string,
  spec: RouteSpec,
): RouteContract {
  const { errors = {}, ...contract } = spec;
  const problems = Object.entries(errors).map(([status, description]) => [status, { description }]);
  return {
    method,
    path,
    ...contract,
    responses: { ...contract.responses, ...Object.fromEntries(problems) },
  };
}

/** The full path of a route (`/api/v1/evaluate`). */
export function fullPath(contract: RouteContract): string {
  return (contract.base ?? API_BASE) + contract.path;
}

/**
 * `true` when `A` and `B` are the same type, else `false` (for compile-time
 * checks that a contract and a hand-written type are one shape).
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;

/** Compiles only when `T` is `true`: `type _ = Holds<SameType<X, Y>>`. */
export type Holds<T extends true> = T;
