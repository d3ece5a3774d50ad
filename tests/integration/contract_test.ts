/**
 * The wire contract (`src/api/`) is the one source of the API: every route the
 * app serves has a contract, every contract has a route, the OpenAPI document
 * is generated from the contracts alone, and real answers parse with the
 * contracts' response schemas.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import { API_ROUTES, fullPath, ProblemSchema, type RouteContract } from "../../src/api/mod.ts";
import { buildOpenApi, openApiPath } from "../../src/api/openapi.ts";
import { startTestServer } from "../helpers/server.ts";

/** Route keys the app serves outside the API contract: HTML pages and static files. */
function isNonApi(path: string): boolean {
  return path === "/" || path.startsWith("/dashboard") || path.startsWith("/static") ||
    path === "/favicon.ico";
}

interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
  requestBody?: {
    content: Record<string, { schema: { properties: Record<string, { maxItems?: number }> } }>;
  };
}

interface OpenApiDoc {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
}

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

Deno.test("every route of the app has a contract in src/api and every contract a route", async () => {
  const server = await startTestServer();
  try {
    const app = server.running.built.app;
    const served = new Set(
      app.routes
        .filter((r) => r.method !== "ALL" && !isNonApi(r.path))
        .map((r) => key(r.method, r.path)),
    );
    const contracted = new Set(API_ROUTES.map((c) => key(c.method, fullPath(c))));
    const missing = [...served].filter((k) => !contracted.has(k));
    assert.deepEqual(
      missing,
      [],
      `routes without a contract: add them to src/api/<area>.ts and list them in API_ROUTES (src/api/mod.ts)`,
    );
    const stale = [...contracted].filter((k) => !served.has(k));
    assert.deepEqual(stale, [], "contracts whose route the app does not serve");
  } finally {
    await server.close();
  }
});

Deno.test("openapi.json lists every contract and nothing else, including /workflows.md", async () => {
  const server = await startTestServer();
  try {
    const served: OpenApiDoc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    assert.deepEqual(served, buildOpenApi(served.info.version, API_ROUTES) as unknown);
    const listed = Object.entries(served.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) =>
        Object.keys(item).filter((m) => m !== "servers").map((m) => key(m, path))
      ).sort();
    const expected = API_ROUTES.map((c) => {
      const full = fullPath(c);
      return key(c.method, openApiPath(full.startsWith("/api/v1/") ? full.slice(7) : full));
    }).sort();
    assert.deepEqual(listed, expected);
    assert.ok(listed.includes("GET /workflows.md"));
    // Error responses are problem documents; every non-public operation documents its 401.
    const evaluate = served.paths["/evaluate"].get;
    assert.ok(evaluate.responses["400"].content?.["application/problem+json"]);
    assert.ok(evaluate.responses["401"]);
    assert.deepEqual(served.paths["/health"].get.security, []);
    const batch = served.paths["/evaluate/batch"].post.requestBody!.content["application/json"];
    assert.equal(batch.schema.properties.packages.maxItems, 500);
  } finally {
    await server.close();
  }
});

function schemaFor(contract: RouteContract, status: number): z.ZodType {
  const schema = contract.responses[status]?.schema ?? (status >= 400 ? ProblemSchema : undefined);
  assert.ok(schema, `${key(contract.method, fullPath(contract))} documents no ${status} schema`);
  return schema;
}

function contractOf(method: string, path: string): RouteContract {
  const found = API_ROUTES.find((c) => c.method === method && fullPath(c) === path);
  assert.ok(found, `no contract for ${method} ${path}`);
  return found;
}

Deno.test("real answers parse with the contracts' response schemas", async (t) => {
  const server = await startTestServer();
  const call = async (method: "get" | "post", path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: method.toUpperCase(),
      headers: { "content-type": "application/json" },
      ...init,
    });
    const body = await res.json();
    return { status: res.status, body };
  };
  const check = async (
    method: "get" | "post",
    route: string,
    url: string,
    init?: RequestInit,
  ) => {
    const res = await call(method, url, init);
    const schema = schemaFor(contractOf(method, route), res.status);
    const parsed = schema.safeParse(res.body);
    assert.ok(
      parsed.success,
      `${method} ${url} → ${res.status}: ${parsed.success ? "" : parsed.error.message}`,
    );
    return res.body;
  };
  try {
    await t.step("evaluations", async () => {
      const one = await check("get", "/api/v1/evaluate", "/api/v1/evaluate?package=pycrypto");
      assert.equal(one.verdict, "DENIED");
      await check("post", "/api/v1/evaluate/batch", "/api/v1/evaluate/batch", {
        body: JSON.stringify({ packages: [{ package: "requests" }, { package: "pycrypto" }] }),
      });
    });
    await t.step("approvals and the queue", async () => {
      const receipt = await check(
        "post",
        "/api/v1/approval-requests",
        "/api/v1/approval-requests",
        {
          body: JSON.stringify({ package: "left-pad", rationale: "needed for padding" }),
        },
      );
      await check("get", "/api/v1/approval-requests", "/api/v1/approval-requests?status=all");
      await server.running.built.deps.approvals.idle();
      await check(
        "get",
        "/api/v1/approval-requests/:id",
        `/api/v1/approval-requests/${receipt.id}`,
      );
      await check("get", "/api/v1/registry/pending", "/api/v1/registry/pending");
    });
    await t.step("registry, reports and health", async () => {
      await check("get", "/api/v1/registry", "/api/v1/registry");
      await check("post", "/api/v1/registry/reload", "/api/v1/registry/reload");
      for (const report of ["security", "legal", "agents"]) {
        await check("get", `/api/v1/reports/${report}`, `/api/v1/reports/${report}?days=7`);
      }
      await check("get", "/api/v1/health", "/api/v1/health");
      const page = await check("get", "/api/v1/audit", "/api/v1/audit?limit=1&verdict=DENIED");
      assert.ok(page.next_cursor);
      await check("get", "/api/v1/audit", `/api/v1/audit?limit=1&cursor=${page.next_cursor}`);
      await check("get", "/api/v1/audit", "/api/v1/audit?cursor=nonsense");
    });
    await t.step("errors are problem documents", async () => {
      const res = await fetch(`${server.url}/api/v1/evaluate?package=no%20such`);
      assert.equal(res.status, 400);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      const parsed = schemaFor(contractOf("get", "/api/v1/evaluate"), 400).safeParse(
        await res.json(),
      );
      assert.ok(parsed.success);
    });
  } finally {
    await server.close();
  }
});
