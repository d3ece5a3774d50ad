/**
 * Authorisation of operator-only operations (reload, proposals, dashboard
 * classify): in org mode the caller must belong to `OPERATOR_GROUP`.
 *
 * @module
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "./deps.ts";
import { ProblemError } from "./problem.ts";

/** Whether the caller is an operator (everyone is, in single-user mode). */
export function isOperator(c: Context<AppEnv>, deps: Pick<AppDeps, "operatorGroup">): boolean {
  if (deps.operatorGroup === null) return true;
  return c.get("identity")?.groups.includes(deps.operatorGroup) ?? false;
}

/** Throws 403 unless the caller may run operator-only operations. */
export function requireOperator(c: Context<AppEnv>, deps: Pick<AppDeps, "operatorGroup">): void {
  if (!isOperator(c, deps)) {
    throw new ProblemError(
      403,
      "forbidden",
      `this operation needs membership of the operator group "${deps.operatorGroup}"`,
    );
  }
}
