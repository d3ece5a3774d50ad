/**
 * Renders the route contracts as an OpenAPI 3.1 document: every schema is
 * converted from the contract's zod schema by `z.toJSONSchema`, nothing is
 * redeclared by hand.
 *
 * @module
 */
import { z } from "zod";
import { fullPath, type RouteContract } from "./contract.ts";
import { CONTEXT_HEADERS } from "./headers.ts";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "./problem.ts";
import { API_ROUTES } from "./mod.ts";
import { API_BASE } from "./paths.ts";

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest as Json;
}

/** `/approval-requests/:id` → `/approval-requests/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

function parameters(contract: RouteContract): Json[] {
  const list: Json[] = [];
  for (const [where, schema] of [["path", contract.params], ["query", contract.query]] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, "input") as {
      properties?: Record<string, Json>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      list.push({
        name,
        in: where,
        required: where === "path" || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return list;
}

function responses(contract: RouteContract): Json {
  const out: Json = {};
  for (const [status, response] of Object.entries(contract.responses)) {
    const isError = Number(status) >= 400;
    const schema = response.schema ?? (isError ? ProblemSchema : undefined);
    const type = response.contentType ?? (isError ? PROBLEM_CONTENT_TYPE : "application/json");
    out[status] = {
      description: response.description,
      ...(schema ? { content: { [type]: { schema: jsonSchema(schema, "output") } } } : {}),
    };
  }
  if (!contract.public) {
    out["401"] ??= {
      description: "org mode: authentication required (carries WWW-Authenticate)",
      content: { [PROBLEM_CONTENT_TYPE]: { schema: jsonSchema(ProblemSchema, "output") } },
    };
  }
  return out;
}

function requestBody(contract: RouteContract): Json | undefined {
  if (!contract.body) return undefined;
  const content: Json = {
    [contract.body.contentType]: { schema: jsonSchema(contract.body.schema, "input") },
  };
  for (const [type, schema] of Object.entries(contract.body.alternatives ?? {})) {
    content[type] = { schema: jsonSchema(schema, "input") };
  }
  return { required: true, content };
}

function operation(contract: RouteContract): Json {
  const notes = [
    contract.description,
    contract.operator ? "Operator-only in org mode (members of OPERATOR_GROUP)." : undefined,
  ].filter(Boolean).join(" ");
  const body = requestBody(contract);
  const params = parameters(contract);
  return {
    summary: contract.summary,
    ...(notes ? { description: notes } : {}),
    ...(contract.public ? { security: [] } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(contract),
  };
}

/**
 * The OpenAPI 3.1 document of the given routes (every API route by default).
 *
 * @example
 * ```ts
 * import { buildOpenApi } from "./openapi.ts";
 * const doc = buildOpenApi("0.1.0");
 * Object.keys(doc.paths as object).includes("/evaluate"); // true
 * ```
 */
export function buildOpenApi(version: string, routes: readonly RouteContract[] = API_ROUTES): Json {
  const paths: Record<string, Json> = {};
  for (const contract of routes) {
    const full = fullPath(contract);
    const relative = full.startsWith(API_BASE + "/") ? full.slice(API_BASE.length) : full;
    const item = paths[openApiPath(relative)] ??= full.startsWith(API_BASE + "/")
      ? {}
      : { servers: [{ url: "/" }] };
    item[contract.method] = operation(contract);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "policyd",
      version,
      description: [
        "Dependency policy service for Python packages.",
        "Errors are RFC 9457 problem details (application/problem+json).",
        "Context headers: " +
        Object.entries(CONTEXT_HEADERS).map(([name, what]) => `${name} (${what})`).join("; ") +
        ".",
      ].join(" "),
    },
    servers: [{ url: API_BASE }],
    components: {
      securitySchemes: {
        trustedHeader: {
          type: "apiKey",
          in: "header",
          name: "X-Forwarded-User",
          description:
            "org mode with AUTH_BACKEND=header behind a trusted proxy (also X-Forwarded-Email, X-Forwarded-Groups)",
        },
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "org mode with AUTH_BACKEND=webhook",
        },
      },
    },
    paths,
  };
}
