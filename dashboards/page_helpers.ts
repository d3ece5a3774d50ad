/**
 * What the page modules borrow from the dashboard routes: rendering with the
 * pages' headers, the HTML 400 page, the frame (chrome) and the known
 * projects.
 *
 * @module
 */
import type { Context } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { QueryIssue } from "../src/reports/params.ts";
import type { Chrome } from "./layout.tsx";
import type { ProjectContext } from "./project_hint.tsx";

// deno-lint-ignore no-explicit-any
type AnyContext = Context<any>;

/** Helpers shared by the page modules. */
export interface PageHelpers {
  page(c: AnyContext, node: JSX.Element): Promise<Response>;
  invalidQuery(c: AnyContext, active: string, errors: QueryIssue[]): Promise<Response>;
  chrome(projects?: ProjectContext): Chrome;
  /** Every project the audit log knows, with the filter's project. */
  projects(asked: string | null | undefined): Promise<ProjectContext>;
}
