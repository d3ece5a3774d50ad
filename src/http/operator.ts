/**
 * Authorisation of operator-only operations (reload, proposals, dashboard
 * classify): in org mode the caller must belong to `OPERATOR_GROUP`.
 *
 * @module
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "./deps.ts";
import { ProblemError } from "./problem.ts";

/** Throws 403 unless the caller may run operator-only operations. */
export function requireOperator(c: Context<AppEnv>, deps: Pick<AppDeps, "operatorGroup">): void {
  if (deps.operatorGroup === null) return;
  const identity = c.get("identity");
  if (!identity?.groups.includes(deps.operatorGroup)) {
    throw new ProblemError(
      403,
      "forbidden",
      `this operation needs membership of the operator group "${deps.operatorGroup}"`,
    );
  }
}
