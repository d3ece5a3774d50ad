/**
 * Workflow of issue 27 point 7: a version range is judged at the release an
 * installer would pick, the newest non-yanked release it admits on PyPI
 * (the fake upstream serves PyPI's real pyyaml project document, whose
 * newest releases are 3.13 and the pre-release 4.2b4); without PyPI data, at
 * the range's bound.
 */
import { equal } from "node:assert/strict";
import { AgentTestClient, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, PYPI, QUICKSTART_SERVER } from "../helpers/requires.ts";

interface Evaluation {
  package: string;
  version: string | null;
  verdict: string;
  denial_category: string | null;
  reason: string;
}

Deno.test(
  "evaluate a version range as it would install",
  workflow(
    "Evaluate a version range as it would install",
    "Pass a requirement with a range as the package (`pyyaml<4`): the server evaluates the " +
      "newest release PyPI lists that the range admits (pre-releases only when the range names " +
      "one) and reports that release as `version`.",
    async () => {
      const app = await workflowApp("ranges");
      try {
        const client = new AgentTestClient(app.built.app);
        const one = await client.get("/api/v1/evaluate", {
          query: { package: "pyyaml<4", project: "shop-api" },
        });
        equal(one.status, 200);
        const judged = one.json<Evaluation>();
        equal(judged.version, "3.13");
        equal(judged.verdict, "DENIED");
        equal(judged.denial_category, "DENIAL_VERSION_CONSTRAINT");
        const batch = await client.post("/api/v1/evaluate/batch", {
          json: { packages: [{ package: "PyYAML>=4.2b1,<5" }, { package: "requests<2.18" }] },
          headers: { "x-policy-project": "shop-api" },
        });
        equal(batch.status, 200);
        const [pre, requests] = batch.json<{ results: Evaluation[] }>().results;
        equal(pre.version, "4.2b4");
        equal(requests.version, "2.17.3");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        PYPI + ": the release list resolves the range; without it the range is judged at " +
        "its bound",
        LOOKUPS,
      ],
    },
  ),
);

Deno.test("without PyPI's release list a range is judged at its bound; a bad range is a 400", async () => {
  const app = await workflowApp("ranges-offline");
  try {
    app.upstream.pypi.mode = "error500";
    const client = new AgentTestClient(app.built.app);
    const res = await client.get("/api/v1/evaluate", { query: { package: "pyyaml<4" } });
    equal(res.status, 200);
    const judged = res.json<Evaluation>();
    equal(judged.version, "4");
    equal(judged.denial_category, "DENIAL_VERSION_CONSTRAINT");
    const both = await client.get("/api/v1/evaluate", {
      query: { package: "pyyaml<4", version: "3.0" },
    });
    equal(both.status, 400);
    const bad = await client.get("/api/v1/evaluate", { query: { package: "pyyaml<4,>=x" } });
    equal(bad.status, 400);
  } finally {
    await app.close();
  }
});
