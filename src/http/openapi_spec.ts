/**
 * The operation table of the API and its rendering as OpenAPI 3.1. Request
 * schemas are the same zod schemas the routes validate with, converted by
 * `z.toJSONSchema`; a capability that adds routes adds its rows here.
 *
 * @module
 */
import { z } from "zod";

/** One documented operation. */
export interface Operation {
  method: "get" | "post";
  path: string;
  summary: string;
  operator?: boolean;
  query?: Record<
    string,
    { description: string; required?: boolean; schema?: Record<string, unknown> }
  >;
  body?: { contentType: string; schema: z.ZodType | Record<string, unknown> };
  responses: Record<string, string>;
}

const problemSchema = {
  type: "object",
  required: ["type", "title", "status", "detail"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

const reportQuery = {
  days: { description: "window in days (default 30)", schema: { type: "integer", minimum: 1 } },
  project: { description: "only this project (default: all; `*` = all)" },
  limit: { description: "length of lists (default 20)", schema: { type: "integer", minimum: 1 } },
};

/** Every operation of `/api/v1`. Append rows when adding routes. */
export const OPERATIONS: Operation[] = [
  {
    method: "get",
    path: "/evaluate",
    summary: "Evaluate one package (optionally at a version); writes one audit row.",
    query: {
      package: {
        description: "PEP 508 name, optionally pinned: `requests` or `requests==2.31.0`",
        required: true,
      },
      version: { description: "PEP 440 version" },
      project: { description: "project name (or header X-Policy-Project; default `default`)" },
    },
    responses: { "200": "Evaluation", "400": "invalid package or version" },
  },
  {
    method: "post",
    path: "/evaluate/batch",
    summary: "Evaluate up to 500 packages; one audit row each.",
    body: {
      contentType: "application/json",
      schema: z.object({
        packages: z.array(z.object({ package: z.string(), version: z.string().optional() })).max(
          500,
        ),
      }),
    },
    responses: { "200": "{results: Evaluation[]}", "400": "invalid body or batch over 500" },
  },
  {
    method: "get",
    path: "/health",
    summary: "Liveness and readiness.",
    responses: { "200": "ok", "503": "database unusable" },
  },
  {
    method: "get",
    path: "/registry",
    summary: "The live compiled registry.",
    responses: { "200": "CompiledRegistry" },
  },
  {
    method: "post",
    path: "/registry/parse-yaml",
    summary: "Validate a registry YAML document (text/yaml body or {yaml}).",
    body: { contentType: "text/yaml", schema: { type: "string" } },
    responses: { "200": "{ok: true, registry}", "422": "{ok: false, errors: [{path, message}]}" },
  },
  {
    method: "post",
    path: "/registry/reload",
    summary: "Re-read the registry file and swap it in atomically (operator).",
    operator: true,
    responses: { "200": "ReloadResult" },
  },
  {
    method: "get",
    path: "/reports/legal",
    summary: "License report.",
    query: reportQuery,
    responses: { "200": "LegalReport" },
  },
  {
    method: "get",
    path: "/reports/security",
    summary: "CVE report.",
    query: reportQuery,
    responses: { "200": "SecurityReport" },
  },
  {
    method: "get",
    path: "/reports/agents",
    summary: "Agent activity report.",
    query: reportQuery,
    responses: { "200": "AgentsReport" },
  },
  {
    method: "get",
    path: "/openapi.json",
    summary: "This document.",
    responses: { "200": "OpenAPI 3.1" },
  },
  {
    method: "post",
    path: "/approval-requests",
    summary: "Ask for a package to be added to the registry; the proposer runs after the 202.",
    body: {
      contentType: "application/json",
      schema: {
        type: "object",
        required: ["package", "rationale"],
        properties: {
          package: { type: "string", description: "PEP 508 name, optionally `name==1.2`" },
          version: { type: "string", description: "PEP 440 version" },
          rationale: { type: "string", minLength: 1, maxLength: 4000 },
        },
      },
    },
    responses: {
      "202": "{id, package, status: PENDING_REVIEW, project, created_at}",
      "400": "invalid body",
    },
  },
  {
    method: "get",
    path: "/approval-requests",
    summary: "Approval requests collapsed per package (project filter first).",
    query: {
      project: { description: "project (default: the caller's; `*` = all projects)" },
      status: {
        description: "PENDING_REVIEW (default), APPROVED or all",
        schema: { type: "string", enum: ["PENDING_REVIEW", "APPROVED", "all"] },
      },
    },
    responses: {
      "200":
        "{items: [{package, status, count, projects, requesters, rationale, last_requested_at}]}",
      "400": "invalid status",
    },
  },
  {
    method: "get",
    path: "/registry/pending",
    summary:
      "The review queue: requested, provisional-no-rationale, repeatedly-denied, pre-screened.",
    query: {
      days: { description: "window in days (default 30)", schema: { type: "integer", minimum: 1 } },
    },
    responses: {
      "200": "{items: [{package, reason, count, projects, last_seen, rationale?}]}",
      "400": "invalid days",
    },
  },
  {
    method: "post",
    path: "/registry/proposals",
    summary: "Propose a rule through the configured proposer (operator).",
    operator: true,
    body: {
      contentType: "application/json",
      schema: {
        type: "object",
        required: ["rule"],
        properties: {
          rule: {
            type: "object",
            required: ["name", "status"],
            properties: {
              name: { type: "string" },
              status: {
                type: "string",
                enum: ["preferred", "approved", "version-constrained", "deprecated", "banned"],
              },
              reason: { type: "string" },
              replacement: { type: "string" },
              min_version: { type: "string" },
              max_version: { type: "string" },
            },
          },
          context: {
            type: "object",
            properties: {
              source: { type: "string", enum: ["agent", "operator"] },
              project: { type: "string" },
              rationale: { type: "string" },
              agent_model: { type: "string" },
              agent_version: { type: "string" },
              extra: { type: "object" },
            },
          },
        },
      },
    },
    responses: {
      "200": "{result: ProposalResult}",
      "400": "no rule",
      "403": "not an operator",
      "422": "invalid rule",
    },
  },
  {
    method: "post",
    path: "/registry/webhook",
    summary:
      "Git host webhook (HMAC-SHA256 in X-Hub-Signature-256); a merged pull request pulls and reloads.",
    body: { contentType: "application/json", schema: { type: "object" } },
    responses: {
      "200": "ping, or {reload: ReloadResult} after a merged pull request",
      "202": "event ignored",
      "401": "bad or missing signature",
      "403": "no REGISTRY_WEBHOOK_SECRET configured",
      "502": "pulling the merged registry failed; registry unchanged",
    },
  },
];

function schemaOf(schema: z.ZodType | Record<string, unknown>): Record<string, unknown> {
  return schema instanceof z.ZodType
    ? z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>
    : schema;
}

/** Renders the operation table as an OpenAPI 3.1 document. */
export function buildOpenApi(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const parameters = Object.entries(op.query ?? {}).map(([name, q]) => ({
      name,
      in: "query",
      required: q.required ?? false,
      description: q.description,
      schema: q.schema ?? { type: "string" },
    }));
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(op.responses)) {
      responses[status] = Number(status) >= 400
        ? { description, content: { "application/problem+json": { schema: problemSchema } } }
        : { description, content: { "application/json": {} } };
    }
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      ...(op.operator ? { description: "Operator-only in org mode (OPERATOR_GROUP)." } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? {
          requestBody: {
            required: true,
            content: { [op.body.contentType]: { schema: schemaOf(op.body.schema) } },
          },
        }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "policyd",
      version,
      description: "Dependency policy service for Python packages.",
    },
    servers: [{ url: "/api/v1" }],
    paths,
  };
}
