/**
 * Workflows of the errors a caller meets and how to recover from them: every
 * error is a problem+json document; these show the status, the body and what
 * to send instead.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, QUICKSTART_SERVER } from "../helpers/requires.ts";
import { exactly } from "../helpers/contract_fields.ts";
import { ProblemSchema } from "../../src/api/problem.ts";

interface Problem {
  type: string;
  status: number;
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}

Deno.test(
  "fix a rejected evaluation request",
  workflow(
    "Fix a rejected evaluation request",
    "Read a 400 problem document (bad package name, a batch over 500 packages) and send a corrected request.",
    async () => {
      const app = await workflowApp("errors-400");
      try {
        const client = new AgentTestClient(app.built.app);
        const badName = await client.get("/api/v1/evaluate", {
          query: { package: "requests; rm -rf /", project: "shop-api" },
        });
        equal(badName.status, 400);
        equal(badName.headers.get("content-type"), "application/problem+json");
        equal(badName.json<Problem>().errors?.[0].path, "package");
        exactly(ProblemSchema, badName.json());
        const fixed = await client.get("/api/v1/evaluate", {
          query: { package: "requests", project: "shop-api" },
        });
        equal(fixed.status, 200);

        const packages = Array.from({ length: 501 }, (_, i) => ({ package: `internal-lib-${i}` }));
        const tooMany = await client.post("/api/v1/evaluate/batch", {
          query: { project: "shop-api" },
          json: { packages },
        });
        equal(tooMany.status, 400);
        match(tooMany.json<Problem>().detail + JSON.stringify(tooMany.json()), /500/);
        const chunks = await stepBoundary(
          "Client-side logic",
          "Split the list into batches of at most 500 packages and send each batch",
          () => [packages.slice(0, 500), packages.slice(500)],
        );
        deepStrictEqual(chunks.map((c) => c.length), [500, 1]);
        const last = await client.post("/api/v1/evaluate/batch", {
          query: { project: "shop-api" },
          json: { packages: chunks[1] },
        });
        equal(last.status, 200);
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        "the 400 needs no upstream; the corrected request's verdict needs " + LOOKUPS,
      ],
    },
  ),
);

Deno.test(
  "a request body over the limit",
  workflow(
    "Keep request bodies under 1 MiB",
    "A request body over 1,048,576 bytes is refused with 413 before it is read; send smaller requests.",
    async () => {
      const app = await workflowApp("errors-413");
      try {
        const client = new AgentTestClient(app.built.app);
        const huge = await client.post("/api/v1/registry/parse-yaml", {
          json: { yaml: `# ${"x".repeat(1024 * 1024)}\npackages: []\n` },
        });
        equal(huge.status, 413);
        equal(huge.json<Problem>().status, 413);
      } finally {
        await app.close();
      }
    },
    { requires: "nothing beyond a running server (the 413 comes before any lookup)" },
  ),
);

Deno.test(
  "the merge webhook without a secret",
  workflow(
    "Merge webhook refused: no secret configured",
    "Without REGISTRY_WEBHOOK_SECRET on the server the merge webhook answers 403 to every delivery, signed or not.",
    async () => {
      const app = await workflowApp("errors-webhook");
      try {
        const client = new AgentTestClient(app.built.app);
        const res = await client.post("/api/v1/registry/webhook", {
          headers: { "x-github-event": "ping" },
          json: { zen: "Keep it logically awesome." },
        });
        equal(res.status, 403);
        match(res.json<Problem>().detail, /REGISTRY_WEBHOOK_SECRET/);
      } finally {
        await app.close();
      }
    },
    {
      requires:
        "a server WITHOUT REGISTRY_WEBHOOK_SECRET (the default); set it, and a git-backed registry, to use the webhook",
    },
  ),
);

Deno.test(
  "evaluation without upstream data",
  workflow(
    "Evaluate while vulnerability and licence data are unavailable",
    "When OSV and PyPI cannot be reached, evaluation still answers 200; `data.vulnerabilities.status` and `data.license.status` say `unavailable` and `reason` names the missing data. With the default `policies.on_missing_data: allow` a preferred package stays ALLOWED.",
    async () => {
      const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const dead = `http://127.0.0.1:${(probe.addr as Deno.NetAddr).port}`;
      probe.close();
      const app = await workflowApp("errors-upstream", {
        env: { OSV_API_URL: dead, PYPI_URL: dead },
      });
      try {
        const client = new AgentTestClient(app.built.app);
        const preferred = await client.get("/api/v1/evaluate", {
          query: { package: "cryptography", project: "shop-api" },
        });
        equal(preferred.status, 200);
        const body = preferred.json<
          { verdict: string; reason: string; data: { vulnerabilities: { status: string } } }
        >();
        equal(body.verdict, "ALLOWED");
        equal(body.data.vulnerabilities.status, "unavailable");
        const unknown = await client.get("/api/v1/evaluate", {
          query: { package: "isort", project: "shop-api" },
        });
        equal(unknown.status, 200);
        await stepBoundary(
          "Client-side logic",
          "When data.vulnerabilities.status is unavailable, an empty `cves` means 'not checked', not 'no vulnerabilities': evaluate again later",
          () => [body.reason, unknown.json<{ reason: string }>().reason],
        );
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER + ", whose registry keeps the default `policies.on_missing_data: allow`",
        "OSV and PyPI unreachable: shown with OSV_API_URL and PYPI_URL pointing at a loopback " +
        "port nothing listens on (any refused or timed-out address does; LOOKUP_TIMEOUT_MS bounds " +
        "the wait)",
      ],
    },
  ),
);
