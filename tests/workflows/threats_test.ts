/**
 * Workflows of issue 26: a look-alike of a popular project is caught and the
 * evaluation names the project it imitates.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { DOC_TIME, workflowApp } from "../helpers/workflow_app.ts";
import { youngProject } from "../helpers/threat_data.ts";
import { PYPI, QUICKSTART_SERVER } from "../helpers/requires.ts";

interface Threat {
  kind: string;
  detail: string;
  similar_to?: string[];
}

interface Evaluation {
  package: string;
  verdict: string;
  denial_category: string | null;
  reason: string;
  threats: Threat[];
}

Deno.test(
  "a typo caught",
  workflow(
    "A typo caught",
    "An agent asks for `reqeusts`, a look-alike of the popular `requests` first uploaded " +
      "yesterday: the evaluation is DENIED with DENIAL_TYPOSQUAT, lists the threat and suggests " +
      "the project it imitates; the suggestion is allowed.",
    async () => {
      const app = await workflowApp("typo-caught", { env: { POPULAR_PACKAGES_URL: "off" } });
      const yesterday = new Date(DOC_TIME.getTime() - 86_400_000);
      app.upstream.addPypiResponse(
        "reqeusts",
        await youngProject("requests", "reqeusts", yesterday),
      );
      try {
        const client = new AgentTestClient(app.built.app);
        const typo = await client.get("/api/v1/evaluate", {
          query: { package: "reqeusts", project: "shop-api" },
          headers: { "X-Policy-Source": "hook", "X-Policy-Agent-Model": "claude-sonnet" },
        });
        equal(typo.status, 200);
        const denied = typo.json<Evaluation>();
        equal(denied.verdict, "DENIED");
        equal(denied.denial_category, "DENIAL_TYPOSQUAT");
        equal(
          denied.reason,
          "`reqeusts` looks like a typo of `requests` (a popular project); did you mean `requests`?",
        );
        deepStrictEqual(denied.threats.map((t) => [t.kind, t.similar_to]), [[
          "typosquat",
          ["requests"],
        ]]);
        let suggestion = "";
        await stepBoundary(
          "Client-side logic",
          "On DENIAL_TYPOSQUAT or DENIAL_NOT_FOUND, take the first name of threats[0].similar_to " +
            "and ask for it instead (never install the denied name)",
          () => {
            suggestion = denied.threats[0].similar_to![0];
          },
        );
        const fixed = await client.get("/api/v1/evaluate", {
          query: { package: suggestion, project: "shop-api" },
          headers: { "X-Policy-Source": "hook", "X-Policy-Agent-Model": "claude-sonnet" },
        });
        const allowed = fixed.json<Evaluation>();
        equal(allowed.verdict, "ALLOWED");
        deepStrictEqual(allowed.threats, []);
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER + " (`policies.typosquat: deny`, the default)",
        PYPI + ": it tells when a project was first released and whether a name exists",
        "the popular-projects list: POPULAR_PACKAGES_URL (shown with `off`, the copy shipped " +
        "with policyd)",
      ],
    },
  ),
);
