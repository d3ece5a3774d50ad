/**
 * The audit log API as a workflow: filter the decisions policyd recorded and
 * page through them with the cursor. Fixed clock, so the document is
 * reproducible.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, QUICKSTART_SERVER } from "../helpers/requires.ts";

interface AuditRowBody {
  id: number;
  package: string;
  project: string;
  verdict: string;
  denial_category: string | null;
}

interface AuditPageBody {
  items: AuditRowBody[];
  total: number;
  next_cursor: string | null;
}

Deno.test(
  "browse the audit log with filters and a cursor",
  workflow(
    "Browse the audit log",
    "List the decisions policyd recorded, filtered by project, verdict, category, agent or source, and page through them with `next_cursor`.",
    async () => {
      const app = await workflowApp("audit");
      try {
        const client = new AgentTestClient(app.built.app);
        for (const pkg of ["pycrypto", "requests", "pyyaml==5.3"]) {
          const evaluated = await client.get("/api/v1/evaluate", {
            query: { package: pkg, project: "shop-api" },
            headers: { "X-Policy-Agent-Model": "claude-code", "X-Policy-Source": "hook" },
          });
          equal(evaluated.status, 200);
        }
        const other = await client.get("/api/v1/evaluate", {
          query: { package: "pycrypto", project: "data-team" },
        });
        equal(other.status, 200);

        const denied = await client.get("/api/v1/audit", {
          query: { project: "shop-api", verdict: "DENIED", agent_model: "claude-code", limit: 1 },
        });
        equal(denied.status, 200);
        const first = denied.json<AuditPageBody>();
        equal(first.total, 2);
        deepStrictEqual(first.items.map((r) => r.package), ["pyyaml"]);
        ok(first.next_cursor);

        const cursor = await stepBoundary(
          "Client-side logic",
          "Pass `next_cursor` back as `cursor` with the same filters until it is null",
          () => first.next_cursor!,
        );
        const next = await client.get("/api/v1/audit", {
          query: {
            project: "shop-api",
            verdict: "DENIED",
            agent_model: "claude-code",
            limit: 1,
            cursor,
          },
        });
        const second = next.json<AuditPageBody>();
        deepStrictEqual(second.items.map((r) => [r.package, r.denial_category]), [
          ["pycrypto", "DENIAL_BANNED"],
        ]);
        equal(second.next_cursor, null);

        const banned = await client.get("/api/v1/audit", {
          query: { project: "*", category: "DENIAL_BANNED" },
        });
        deepStrictEqual(banned.json<AuditPageBody>().items.map((r) => r.project), [
          "data-team",
          "shop-api",
        ]);

        const bad = await client.get("/api/v1/audit", { query: { verdict: "MAYBE" } });
        equal(bad.status, 400);
        equal(bad.headers.get("content-type"), "application/problem+json");
        equal(bad.json<{ errors: Array<{ path: string }> }>().errors[0].path, "verdict");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        "in org mode, any authenticated identity",
        LOOKUPS,
        "`CVE_ALERT` rows only after a scanner pass (CVE_SCAN_SCHEDULE)",
      ],
    },
  ),
);
