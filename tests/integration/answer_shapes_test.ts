/**
 * One shape per answer (issue 30): OpenAPI's health and audit-row schemas,
 * generated from the contracts, describe every field of real answers, at
 * every depth, and real answers parse with the contracts.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { drift, type JsonSchema } from "../helpers/schema_drift.ts";
import { HealthSchema } from "../../src/api/service.ts";
import { AuditPageSchema } from "../../src/api/audit.ts";

type OpenApi = { paths: Record<string, Record<string, OpenApiOperation>> };
type OpenApiOperation = {
  responses: Record<string, { content: Record<string, { schema: JsonSchema }> }>;
};

/** The published schema of a route's answer. */
function published(openapi: OpenApi, path: string, status: string): JsonSchema {
  return openapi.paths[path].get.responses[status].content["application/json"].schema;
}

Deno.test("the health document: every field of a real answer is in OpenAPI, none missing", async () => {
  const server = await startTestServer({
    env: {
      ALERTS_WEBHOOK_URL: "http://127.0.0.1:9/hook",
      ALERTS_WEBHOOK_SECRET: "s3cret-for-tests",
    },
  });
  try {
    const res = await fetch(`${server.url}/api/v1/health`);
    assert.equal(res.status, 200);
    const health = await res.json();
    assert.ok(health.upstreams && health.scanner && health.auth, "a full health document");
    HealthSchema.parse(health);
    const openapi: OpenApi = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    assert.deepEqual(drift(health, published(openapi, "/health", "200"), "health"), []);
  } finally {
    await server.close();
  }
});

Deno.test("audit rows: every field of a real row is in OpenAPI, none missing", async () => {
  const server = await startTestServer();
  try {
    for (const pkg of ["requests", "left-pad", "pycrypto"]) {
      const evaluated = await fetch(`${server.url}/api/v1/evaluate?package=${pkg}`, {
        headers: { "x-policy-agent-model": "claude-opus", "x-policy-source": "hook" },
      });
      assert.equal(evaluated.status, 200);
      await evaluated.body?.cancel();
    }
    const res = await fetch(`${server.url}/api/v1/audit?limit=10`);
    assert.equal(res.status, 200);
    const page = await res.json();
    assert.equal(page.items.length, 3);
    AuditPageSchema.parse(page);
    const openapi: OpenApi = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    assert.deepEqual(drift(page, published(openapi, "/audit", "200"), "audit"), []);
  } finally {
    await server.close();
  }
});
