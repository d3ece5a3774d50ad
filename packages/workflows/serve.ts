/**
 * Serving the compiled document from any router (a Hono app of any version,
 * or any router through a one-line `MountGet` adapter), with a strong ETag
 * and conditional requests.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { fileSource, serveWorkflows } from "@policyd/workflows/serve";
 * serveWorkflows(new Hono(), { markdown: fileSource("workflows.md") });
 * ```
 *
 * @module
 */
export {
  documentEtag,
  type DocumentHandler,
  documentResponse,
  type DocumentSource,
  fileSource,
  type HonoLike,
  honoMount,
  type MountGet,
  serveWorkflows,
  type ServeWorkflowsOptions,
} from "./src/serve.ts";
