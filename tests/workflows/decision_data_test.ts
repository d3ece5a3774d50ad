/**
 * Workflows of issue 14: what a decision knew (data status and freshness),
 * and registry exceptions with an expiry.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { DOC_TIME, workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, QUICKSTART_SERVER } from "../helpers/requires.ts";

interface DataSource {
  status: "fresh" | "cached" | "unavailable" | "skipped";
  fetched_at: string | null;
}

interface Evaluation {
  verdict: string;
  denial_category: string | null;
  data: { vulnerabilities: DataSource; license: DataSource };
  exceptions_applied: Array<{ package: string; vulnerabilities?: string[]; expires: string }>;
}

Deno.test(
  "read what a decision knew",
  workflow(
    "Read what a decision knew",
    "Every evaluation says whether its vulnerability and license data was fetched for it, " +
      "came from the cache (and when it was fetched), was unavailable, or was not needed.",
    async () => {
      // The embedded memory cache (REDIS_URL unset) keeps answers and their fetch time.
      const app = await workflowApp("decision-data", { env: { REDIS_URL: "" } });
      try {
        const client = new AgentTestClient(app.built.app);
        const first = await client.get("/api/v1/evaluate", {
          query: { package: "requests", version: "2.31.0", project: "shop-api" },
        });
        equal(first.status, 200);
        const fresh = first.json<Evaluation>();
        equal(fresh.data.vulnerabilities.status, "fresh");
        const again = await client.get("/api/v1/evaluate", {
          query: { package: "requests", version: "2.31.0", project: "shop-api" },
        });
        const cached = again.json<Evaluation>();
        equal(cached.data.vulnerabilities.status, "cached");
        equal(cached.data.vulnerabilities.fetched_at, fresh.data.vulnerabilities.fetched_at);
        const banned = await client.get("/api/v1/evaluate", {
          query: { package: "pycrypto", project: "shop-api" },
        });
        equal(banned.json<Evaluation>().data.vulnerabilities.status, "skipped");
        await stepBoundary(
          "Client-side logic",
          "Trust an ALLOWED only when data.vulnerabilities.status is fresh, cached or skipped; " +
            "when it is unavailable, the CVE check did not run: retry later or ask for review",
          () => {
            ok(
              cached.verdict === "ALLOWED" && cached.data.vulnerabilities.status !== "unavailable",
            );
          },
        );
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        LOOKUPS,
        "a lookup cache for `cached`: REDIS_URL unset (the in-process cache) or a Redis, and " +
        "CACHE_TTL_SECONDS above 0; with REDIS_URL=none every answer is `fresh`",
      ],
    },
  ),
);

Deno.test(
  "waive a vulnerability until a date",
  workflow(
    "Waive a vulnerability until a date",
    "A registry exception lifts the denial for the vulnerabilities it names until it expires; " +
      "the evaluation lists it in exceptions_applied and the security report warns before it runs out.",
    async () => {
      const expires = new Date(DOC_TIME.getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
      const registryYaml = (await readExampleRegistry()).replace(
        /^exceptions:\n/m,
        `exceptions:
  - package: cryptography
    versions: "==46.0.6"
    vulnerabilities: [CVE-2026-39892]
    reason: "the affected code path is not used; upgrade planned"
    expires: "${expires}"
    approved_by: security@example.com
`,
      );
      const app = await workflowApp("exception", { registryYaml });
      try {
        const client = new AgentTestClient(app.built.app);
        const res = await client.get("/api/v1/evaluate", {
          query: { package: "cryptography", version: "46.0.6", project: "shop-api" },
        });
        equal(res.status, 200);
        const body = res.json<Evaluation>();
        equal(body.verdict, "ALLOWED");
        deepStrictEqual(body.exceptions_applied[0].vulnerabilities, ["CVE-2026-39892"]);
        const report = await client.get("/api/v1/reports/security", {
          query: { project: "shop-api", days: "30" },
        });
        const due = report.json<{ exceptions: { expiring: Array<{ package: string }> } }>();
        equal(due.exceptions.expiring[0].package, "cryptography");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        "an `exceptions` entry in the registry YAML at REGISTRY_PATH (format under Conventions; " +
        "added through review like any rule change)",
        LOOKUPS + "; the waived vulnerability must be one OSV reports",
      ],
    },
  ),
);
