/**
 * An approval request never approves itself (SPEC §17.1, issue #26): the
 * agent files it, nothing changes, and an operator's proposal is what puts
 * the rule in the registry and approves the request.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, OPERATOR, ORG_MODE_IDENTITY, QUICKSTART_SERVER } from "../helpers/requires.ts";

Deno.test(
  "an operator approves an agent's request",
  workflow(
    "An operator approves an agent's request",
    "A coding agent files an approval request for a package it needs; the request changes nothing (`PENDING_REVIEW`, the registry as it was, the verdict unchanged) until an operator approves it with `POST /api/v1/registry/proposals` (the workshop's Approve, `policy approve`); then the request is `APPROVED` and the package `ALLOWED`.",
    async () => {
      const app = await workflowApp("operator-approves", {
        env: { REGISTRY_PROPOSER: "local_file" },
      });
      try {
        const agent = new AgentTestClient(app.built.app, {
          headers: {
            "x-policy-project": "shop-api",
            "x-policy-agent-model": "claude-sonnet-4-5",
          },
        });
        const check = await agent.get("/api/v1/evaluate", { query: { package: "isort" } });
        equal(check.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
        const request = await agent.post("/api/v1/approval-requests", {
          json: { package: "isort", rationale: "Sort imports in CI; replaces our script." },
        });
        equal(request.status, 202);
        const receipt = request.json<{ id: number; status: string; message: string }>();
        equal(receipt.status, "PENDING_REVIEW");
        equal(receipt.message, `filed for review (id ${receipt.id}); not approved yet`);
        await app.built.deps.approvals.idle();
        const filed = await agent.get(`/api/v1/approval-requests/${receipt.id}`);
        deepStrictEqual(
          [
            filed.json<{ status: string }>().status,
            filed.json<{ proposal_status: string }>().proposal_status,
          ],
          ["PENDING_REVIEW", "queued"],
        );
        const unchanged = await agent.get("/api/v1/evaluate", { query: { package: "isort" } });
        equal(unchanged.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");

        const operator = new AgentTestClient(app.built.app);
        const queue = await operator.get("/api/v1/registry/pending", { query: { days: "30" } });
        const item = queue.json<{ items: Array<{ package: string; reason: string }> }>().items
          .find((i) => i.package === "isort");
        equal(item?.reason, "requested");
        const rule = await stepBoundary(
          "Operator decision",
          "The operator reads the rationale and writes the rule's reason themselves",
          () => ({ name: "isort", status: "approved", reason: "Import sorting for CI" }),
        );
        const approval = await operator.post("/api/v1/registry/proposals", {
          json: { rule, context: { rationale: "Reviewed the request from shop-api" } },
        });
        equal(approval.status, 200);
        equal(approval.json<{ result: { status: string } }>().result.status, "applied");
        const approved = await agent.get(`/api/v1/approval-requests/${receipt.id}`);
        equal(approved.json<{ status: string }>().status, "APPROVED");
        ok(approved.json<{ decided_at: string | null }>().decided_at);
        const after = await agent.get("/api/v1/evaluate", { query: { package: "isort" } });
        equal(after.json<{ verdict: string }>().verdict, "ALLOWED");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        "the agent: " + QUICKSTART_SERVER + "; " + ORG_MODE_IDENTITY,
        "the approval: " + OPERATOR + "; REGISTRY_PROPOSER=local_file or local_git " +
        "(quickstart's) writes the rule at once, so the request shows `queued` until then",
        LOOKUPS,
      ],
    },
  ),
);
