/**
 * Receiving alerts as a workflow (issue #32): an agent's approval request and
 * an operator's approval become signed webhook deliveries; a refused
 * delivery waits in the outbox, and the operator mutes or retries it. The
 * receiver is a real loopback server; the clock is fixed, so the document is
 * reproducible (a refused try is due again only after its back-off, which a
 * fixed clock never reaches: the operator's retry makes it due now).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { createAlertReceiver } from "../helpers/alert_receiver.ts";
import { OPERATOR, QUICKSTART_SERVER } from "../helpers/requires.ts";

const SECRET = "workflow-alerts-secret-0123456789";

interface Delivery {
  id: number;
  key: string;
  event: string;
  package: string | null;
  destination: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

interface AlertsPage {
  items: Delivery[];
  backlog: { pending: number; dead: number };
  destinations: string[];
}

Deno.test(
  "an approval request and an operator's approval reach a signed webhook; a refused delivery is retried",
  workflow(
    "Receive alerts",
    "Have policyd tell a receiver about new CVEs, malware seen in use, approval requests, rule changes and upstream outages: configure a signed webhook (`ALERTS_WEBHOOK_URL`, `ALERTS_WEBHOOK_SECRET`), then watch deliveries in `GET /api/v1/alerts` and retry or mute one.",
    async () => {
      const receiver = createAlertReceiver(SECRET);
      const app = await workflowApp("alerts", {
        env: {
          REGISTRY_PROPOSER: "local_file",
          ALERTS_WEBHOOK_URL: receiver.url,
          ALERTS_WEBHOOK_SECRET: SECRET,
          ALERTS_DASHBOARD_URL: "https://policyd.example",
        },
      });
      const deliver = () => app.built.alerts.delivery.flush();
      try {
        const agent = new AgentTestClient(app.built.app, {
          headers: { "x-policy-project": "shop-api", "x-policy-agent-model": "claude-sonnet-4-5" },
        });
        const request = await agent.post("/api/v1/approval-requests", {
          json: { package: "isort", rationale: "Sort imports in CI; replaces our script." },
        });
        equal(request.status, 202);

        const operator = new AgentTestClient(app.built.app);
        const waiting = await operator.get("/api/v1/alerts");
        equal(waiting.status, 200);
        const first = waiting.json<AlertsPage>();
        deepStrictEqual(first.destinations, ["webhook"]);
        deepStrictEqual(first.items.map((d) => [d.event, d.package, d.state]), [
          ["request_filed", "isort", "pending"],
        ]);

        receiver.failNext(1);
        await stepBoundary(
          "Delivery",
          "policyd delivers the outbox in the background; this receiver refuses the first try (503)",
          deliver,
        );
        const refused = await operator.get("/api/v1/alerts", { query: { state: "pending" } });
        const [pending] = refused.json<AlertsPage>().items;
        equal(pending.attempts, 1);
        equal(pending.last_error, "the receiver answered 503: not now");

        const muted = await operator.post(`/api/v1/alerts/${pending.id}/mute`);
        deepStrictEqual(muted.json(), { id: pending.id, state: "muted" });
        const retried = await operator.post(`/api/v1/alerts/${pending.id}/retry`);
        deepStrictEqual(retried.json(), { id: pending.id, state: "pending" });

        const approval = await operator.post("/api/v1/registry/proposals", {
          json: { rule: { name: "isort", status: "approved", reason: "Import sorting for CI" } },
        });
        equal(approval.status, 200);
        await stepBoundary(
          "Delivery",
          "The receiver accepts; it verifies X-Policyd-Signature-256 over the raw body and drops a repeated X-Policyd-Delivery",
          deliver,
        );
        const accepted = receiver.seen.filter((s) => s.accepted);
        deepStrictEqual(accepted.map((s) => s.event), ["request_filed", "rule_changed"]);
        ok(accepted.every((s) => s.signatureOk));
        equal(accepted[1].body.url, "https://policyd.example/dashboard/package/isort");

        const done = await operator.get("/api/v1/alerts");
        deepStrictEqual(done.json<AlertsPage>().items.map((d) => [d.event, d.state]), [
          ["rule_changed", "delivered"],
          ["request_filed", "delivered"],
        ]);
        const again = await operator.post(`/api/v1/alerts/${pending.id}/retry`);
        equal(again.status, 409);
      } finally {
        await app.close();
        await receiver.stop();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER + "; REGISTRY_PROPOSER=local_file (quickstart's) for the approval",
        OPERATOR + " for GET /api/v1/alerts, retry and mute",
        "ALERTS_WEBHOOK_URL and ALERTS_WEBHOOK_SECRET on the server (see Settings), pointing at a " +
        "receiver the server can reach (offline, a loopback HTTP server that checks " +
        "X-Policyd-Signature-256 and answers 2xx, as this test does)",
        "`cve_alert` and `malicious_seen` only after a scanner pass (CVE_SCAN_SCHEDULE); " +
        "`upstream_down` after OSV or PyPI failed for ALERTS_UPSTREAM_DOWN_AFTER_S",
      ],
    },
  ),
);
