/**
 * `GET /workflows.md` and `GET /workflows.json`: policyd's own test-gated
 * workflow document, served by the workflow docs library. The files are read
 * through `import.meta.url` (and shipped with `deno compile --include`).
 *
 * @module
 */
import { Hono } from "hono";
import { fileSource, serveWorkflows } from "@policyd/workflows/serve";
import type { AppEnv } from "../deps.ts";

/** Location of the committed workflow document. */
export const WORKFLOWS_MD_URL = new URL("../../../workflows.md", import.meta.url);
/** Location of its JSON twin. */
export const WORKFLOWS_JSON_URL = new URL("../../../workflows.json", import.meta.url);

/** Routes serving the workflow document. */
export function workflowRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  serveWorkflows(routes, {
    path: "/workflows.md",
    markdown: fileSource(WORKFLOWS_MD_URL),
    json: fileSource(WORKFLOWS_JSON_URL),
  });
  return routes;
}
