/**
 * Workflows of org mode (`AUTH_ENABLED=true`, header backend): what a caller
 * behind the authenticating gateway sends, and the 401/403 answers.
 */
import { equal, match } from "node:assert/strict";
import { AgentTestClient, workflow } from "../../src/workflows/mod.ts";
import { type WorkflowApp, workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS } from "../helpers/requires.ts";

const ORG_MODE = { AUTH_ENABLED: "true", AUTH_BACKEND: "header", TRUSTED_PROXIES: "127.0.0.1/32" };
/** The gateway's address: the TCP peer policyd sees (the app is called in-process). */
const GATEWAY = { remoteAddr: { hostname: "127.0.0.1" } };

function gatewayClient(app: WorkflowApp, headers: Record<string, string> = {}): AgentTestClient {
  return new AgentTestClient(app.built.app, { env: GATEWAY, headers });
}

Deno.test(
  "org mode: evaluate as an agent behind the gateway",
  workflow(
    "Call policyd in org mode as a coding agent",
    "Behind the authenticating gateway, identify the agent with X-Policy-Agent-Model / X-Policy-Agent-Version and the project with X-Policy-Project; the audit log and the agents report record them.",
    async () => {
      const app = await workflowApp("org-agent", { env: ORG_MODE });
      try {
        const client = gatewayClient(app, {
          "x-forwarded-user": "alice",
          "x-forwarded-email": "alice@example.com",
          "x-forwarded-groups": "developers",
          "x-policy-project": "shop-api",
          "x-policy-agent-model": "claude-sonnet-4-5",
          "x-policy-agent-version": "2.0.14",
        });
        const check = await client.get("/api/v1/evaluate", { query: { package: "black" } });
        equal(check.status, 200);
        equal(check.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
        const request = await client.post("/api/v1/approval-requests", {
          json: { package: "black", rationale: "Format the code base the same way in CI." },
        });
        equal(request.status, 202);
        await app.built.deps.approvals.idle();
        const report = await client.get("/api/v1/reports/agents", { query: { days: "30" } });
        equal(report.status, 200);
        match(JSON.stringify(report.json()), /claude-sonnet-4-5/);
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        "org mode: the server runs with AUTH_ENABLED set to true and AUTH_BACKEND set to header",
        "calls go through the authenticating gateway listed in TRUSTED_PROXIES (comma-separated " +
        "CIDRs, default 127.0.0.1/32), which sets X-Forwarded-User (and -Email, -Groups)",
        LOOKUPS,
      ],
    },
  ),
);

Deno.test(
  "org mode: 401 and 403",
  workflow(
    "Handle 401 and 403 in org mode",
    "Without an identity every non-public route answers 401 with WWW-Authenticate; an identity outside OPERATOR_GROUP gets 403 on operator routes; an operator succeeds.",
    async () => {
      const app = await workflowApp("org-errors", { env: ORG_MODE });
      try {
        const anonymous = gatewayClient(app);
        const denied = await anonymous.get("/api/v1/evaluate", { query: { package: "requests" } });
        equal(denied.status, 401);
        equal(typeof denied.headers.get("www-authenticate"), "string");
        const developer = gatewayClient(app, {
          "x-forwarded-user": "alice",
          "x-forwarded-groups": "developers",
        });
        const forbidden = await developer.post("/api/v1/registry/reload");
        equal(forbidden.status, 403);
        const operator = gatewayClient(app, {
          "x-forwarded-user": "olga",
          "x-forwarded-groups": "developers, policy-admins",
        });
        const reloaded = await operator.post("/api/v1/registry/reload");
        equal(reloaded.status, 200);
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        "org mode: AUTH_ENABLED set to true, AUTH_BACKEND set to header, calls through the gateway in TRUSTED_PROXIES",
        "operators are members of OPERATOR_GROUP (default policy-admins)",
      ],
    },
  ),
);
