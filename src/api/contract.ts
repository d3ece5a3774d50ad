/**
 * The shape of one route's wire contract: its request (query, path
 * parameters, body), its responses and its error cases, all as zod schemas.
 * Routes validate with these schemas, the OpenAPI document is generated from
 * them, and the client and the dashboards parse with them.
 *
 * @module
 */
import type { z } from "zod";

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

/** Declares a route contract (an identity function that keeps the literal type). */
export function defineRoute<const T extends RouteContract>(contract: T): T {
  return contract;
}

/** The full path of a route (`/api/v1/evaluate`). */
export function fullPath(contract: RouteContract): string {
  return (contract.base ?? "/api/v1") + contract.path;
}
