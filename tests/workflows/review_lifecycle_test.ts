/**
 * The review lifecycle of issue #31: an operator rejects a request with a
 * reason or dismisses it, reads the registry change log, and reverts an
 * applied change through the proposer (as a new change), which puts the
 * registry back to its earlier version.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { AgentTestClient, workflow } from "../../src/workflows/mod.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { workflowApp } from "../helpers/workflow_app.ts";

const AGENT_HEADERS = {
  "x-policy-project": "shop-api",
  "x-policy-agent-model": "claude-sonnet-4-5",
  "x-policy-source": "hook",
};

interface Change {
  id: number;
  kind: string;
  package: string;
  actor: string | null;
  before: { status: string } | null;
  after: { status: string } | null;
  registry_version: string | null;
  previous_version: string | null;
  reverts: number | null;
  request_id: number | null;
  detail: string;
}

Deno.test(
  "an operator rejects an agent's request with a reason",
  workflow(
    "An operator rejects an agent's request",
    "An agent files an approval request; the operator rejects it with `POST /api/v1/approval-requests/{id}/reject` and a reason the requester reads (`GET /api/v1/approval-requests/{id}`), and the decision appears in the registry change log (`GET /api/v1/registry/changes`). A decided request cannot be decided again (409); a request filed by mistake is dismissed instead.",
    async () => {
      const app = await workflowApp("operator-rejects", {
        env: { REGISTRY_PROPOSER: "local_file" },
      });
      try {
        const agent = new AgentTestClient(app.built.app, { headers: AGENT_HEADERS });
        const filed = await agent.post("/api/v1/approval-requests", {
          json: { package: "leftpad", rationale: "Pads strings for the invoice export." },
        });
        equal(filed.status, 202);
        const { id } = filed.json<{ id: number }>();
        const dup = await agent.post("/api/v1/approval-requests", {
          json: { package: "leftpad", rationale: "Pads strings (filed twice by mistake)." },
        });
        const dupId = dup.json<{ id: number }>().id;
        await app.built.deps.approvals.idle();

        const operator = new AgentTestClient(app.built.app);
        const noReason = await operator.post(`/api/v1/approval-requests/${id}/reject`, {
          json: { reason: "  " },
        });
        equal(noReason.status, 400);
        const rejected = await operator.post(`/api/v1/approval-requests/${id}/reject`, {
          json: { reason: "Use str.rjust; a dependency for one line is not worth it." },
        });
        equal(rejected.status, 200);
        const row = rejected.json<
          { status: string; decided_by: string; decision_reason: string; source: string }
        >();
        deepStrictEqual(
          [row.status, row.decided_by, row.decision_reason, row.source],
          [
            "REJECTED",
            "local",
            "Use str.rjust; a dependency for one line is not worth it.",
            "hook",
          ],
        );
        const read = await agent.get(`/api/v1/approval-requests/${id}`);
        equal(read.json<{ status: string }>().status, "REJECTED");
        const again = await operator.post(`/api/v1/approval-requests/${id}/dismiss`, { json: {} });
        equal(again.status, 409);
        const dismissed = await operator.post(`/api/v1/approval-requests/${dupId}/dismiss`, {
          json: { reason: "duplicate" },
        });
        equal(dismissed.json<{ status: string }>().status, "DISMISSED");
        const missing = await operator.post("/api/v1/approval-requests/9999/reject", {
          json: { reason: "x" },
        });
        equal(missing.status, 404);

        const log = await operator.get("/api/v1/registry/changes", {
          query: { package: "LeftPad" },
        });
        const items = log.json<{ items: Change[] }>().items;
        deepStrictEqual(
          items.map((c) => [c.kind, c.request_id, c.actor, c.detail]),
          [
            ["dismissed", dupId, "local", "duplicate"],
            ["rejected", id, "local", "Use str.rjust; a dependency for one line is not worth it."],
          ],
        );
        const queue = await operator.get("/api/v1/registry/pending", { query: { days: "30" } });
        equal(
          queue.json<{ items: Array<{ package: string }> }>().items.some((i) =>
            i.package === "leftpad"
          ),
          false,
        );
      } finally {
        await app.close();
      }
    },
    { requires: ["an operator (anyone in single-user mode; OPERATOR_GROUP in org mode)"] },
  ),
);

Deno.test(
  "an operator reverts an approval",
  workflow(
    "An operator reverts an approval",
    "An operator approves a requested package (`POST /api/v1/registry/proposals`); the change log records who applied which rule and the registry versions before and after. `POST /api/v1/registry/changes/{id}/revert` runs the proposer again as a new change: the rule is removed, the registry is back at its earlier version and the package is not in the registry any more.",
    async () => {
      // Without an authored `version:`, the registry version is the document's content hash.
      const authored = await readExampleRegistry();
      const app = await workflowApp("operator-reverts", {
        env: { REGISTRY_PROPOSER: "local_file" },
        registryYaml: authored.replace(/^version: .*\n/m, ""),
      });
      try {
        const agent = new AgentTestClient(app.built.app, { headers: AGENT_HEADERS });
        const operator = new AgentTestClient(app.built.app);
        const original = await Deno.readTextFile(app.registryPath);
        const earlier = (await operator.get("/api/v1/registry")).json<{ version: string }>()
          .version;
        await agent.post("/api/v1/approval-requests", {
          json: { package: "isort", rationale: "Sort imports in CI." },
        });
        await app.built.deps.approvals.idle();
        const approval = await operator.post("/api/v1/registry/proposals", {
          json: { rule: { name: "isort", status: "approved", reason: "Import sorting" } },
        });
        equal(approval.json<{ result: { status: string } }>().result.status, "applied");
        const later = (await operator.get("/api/v1/registry")).json<{ version: string }>().version;
        ok(later !== earlier);

        const log = await operator.get("/api/v1/registry/changes", { query: { package: "isort" } });
        const [applied] = log.json<{ items: Change[] }>().items;
        deepStrictEqual(
          [applied.kind, applied.before, applied.after?.status, applied.actor],
          ["applied", null, "approved", "local"],
        );
        deepStrictEqual([applied.previous_version, applied.registry_version], [earlier, later]);

        const revert = await operator.post(`/api/v1/registry/changes/${applied.id}/revert`);
        equal(revert.status, 200);
        equal(revert.json<{ result: { status: string } }>().result.status, "applied");
        const now = (await operator.get("/api/v1/registry")).json<{ version: string }>().version;
        equal(now, earlier);
        equal(await Deno.readTextFile(app.registryPath), original);
        const check = await agent.get("/api/v1/evaluate", { query: { package: "isort" } });
        equal(check.json<{ registry_status: string | null }>().registry_status, null);

        const after = await operator.get("/api/v1/registry/changes", {
          query: { package: "isort" },
        });
        const [reverted] = after.json<{ items: Change[] }>().items;
        deepStrictEqual(
          [reverted.kind, reverted.reverts, reverted.after, reverted.registry_version],
          ["applied", applied.id, null, earlier],
        );
        const twice = await operator.post(`/api/v1/registry/changes/${applied.id}/revert`);
        equal(twice.status, 409);
      } finally {
        await app.close();
      }
    },
    {
      requires: ["an operator; REGISTRY_PROPOSER=local_file or local_git (they can remove a rule)"],
    },
  ),
);
