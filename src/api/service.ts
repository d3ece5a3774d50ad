/**
 * Contracts of the service routes: health and the API's own documents.
 *
 * @module
 */
import { z } from "zod";
import { defineRoute } from "./contract.ts";
import { API_PATHS } from "./paths.ts";

/** The state of one upstream service. */
export const UpstreamStateSchema = z.object({
  status: z.enum(["ok", "failing", "unknown"]).describe(
    "after the latest call; unknown before any",
  ),
  last_success_at: z.string().nullable(),
  last_error_at: z.string().nullable(),
  last_error: z.string().nullable().describe("credentials redacted"),
  breaker: z.enum(["closed", "open", "half_open"]).describe(
    "circuit breaker: open = lookups skip this upstream (data unavailable) until retry_at; " +
      "half_open = one probe is under way",
  ),
  retry_at: z.string().nullable().describe("when an open breaker lets the next probe through"),
});

/** The health document (later capabilities add members). */
export const HealthSchema = z.looseObject({
  status: z.enum(["ok", "unavailable"]),
  version: z.string(),
  registry_version: z.string(),
  package_count: z.number().int(),
  db: z.enum(["ok", "unavailable"]),
  cache: z.string().describe("memory, redis, none; `degraded` when Redis is unreachable"),
  proposer: z.string(),
  uptime_s: z.number().int(),
  upstreams: z.object({ osv: UpstreamStateSchema, pypi: UpstreamStateSchema }),
  scanner: z.object({
    enabled: z.boolean(),
    schedule: z.string().describe("CVE_SCAN_SCHEDULE"),
    running: z.boolean(),
    last_started_at: z.string().nullable().optional(),
    last_finished_at: z.string().nullable().optional(),
    last_rows: z.number().int().nullable().optional(),
    last_error: z.string().nullable().optional(),
    last_pass: z.unknown().optional().describe(
      "instances sharing a store: the last pass of any instance (null before the first)",
    ),
  }).describe("the CVE scanner; the `last_*` members once it is enabled"),
  auth: z.object({ enabled: z.boolean(), backend: z.string() }),
  instance: z.string().optional().describe(
    "INSTANCE_ID, when instances share a store (DATABASE_URL)",
  ),
  alerts: z.object({
    destinations: z.array(z.string()).describe("the configured alert destinations"),
    pending: z.number().int().describe("alert deliveries waiting or being retried"),
    dead: z.number().int().describe("alert deliveries dead-lettered"),
    oldest_pending_at: z.string().nullable(),
  }).nullable().optional().describe("the alert outbox backlog (null when it cannot be read)"),
});

/** `GET /health`. */
export const healthRoute = defineRoute("get", API_PATHS.health, {
  summary: "Liveness and readiness.",
  public: true,
  responses: {
    200: { description: "ok", schema: HealthSchema },
    503: { description: "database unusable (body: the health document)", schema: HealthSchema },
  },
});

/** `GET /openapi.json`. */
export const openapiRoute = defineRoute("get", "/openapi.json", {
  summary: "This document (OpenAPI 3.1, generated from the route contracts).",
  public: true,
  responses: {
    200: { description: "OpenAPI 3.1", schema: z.looseObject({ openapi: z.string() }) },
  },
});

/** `GET /workflows.md`. */
export const workflowsMarkdownRoute = defineRoute("get", "/workflows.md", {
  summary: "Test-gated API workflows for AI assistants (Markdown; ETag and 304 supported).",
  public: true,
  responses: {
    200: { description: "the document", schema: z.string(), contentType: "text/markdown" },
    304: { description: "not modified (If-None-Match)" },
  },
});

/** `GET /workflows.json`. */
export const workflowsJsonRoute = defineRoute("get", "/workflows.json", {
  summary: "The same workflows as JSON.",
  public: true,
  responses: {
    200: { description: "the workflows", schema: z.looseObject({}) },
    304: { description: "not modified (If-None-Match)" },
  },
});

/** `GET /llms.txt` (server root): the llms.txt index for AI assistants. */
export const llmsTxtRoute = defineRoute("get", "/llms.txt", {
  base: "",
  summary:
    "llms.txt (llmstxt.org): what policyd is and links to workflows.md, openapi.json and the docs.",
  public: true,
  responses: {
    200: { description: "the index (Markdown)", schema: z.string(), contentType: "text/markdown" },
  },
});

/** Name of a documentation page: `auth.md`. */
export const DocsPageParamsSchema = z.object({
  page: z.string().max(64).regex(/^[a-z][a-z0-9_-]*\.md$/, {
    message: "a page name such as auth.md",
  }),
});

/** `GET /docs/:page` (server root): one page of the documentation. */
export const docsPageRoute = defineRoute("get", "/docs/:page", {
  base: "",
  summary: "One documentation page as Markdown (listed in /llms.txt).",
  public: true,
  params: DocsPageParamsSchema,
  responses: {
    200: { description: "the page", schema: z.string(), contentType: "text/markdown" },
    304: { description: "not modified (If-None-Match)" },
  },
  errors: { 404: "no such page" },
});
