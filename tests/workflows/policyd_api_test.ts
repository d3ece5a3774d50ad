/**
 * policyd's user-facing API flows, written as workflow tests: each passing
 * test becomes a section of the committed `workflows.md` (served at
 * `GET /api/v1/workflows.md`). Keep them realistic: they are what AI
 * assistants read to call policyd correctly.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { signBody } from "../../src/approvals/webhook.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { createBareRemote, git } from "../helpers/git_fixture.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { exactly } from "../helpers/contract_fields.ts";
import { EvaluationSchema, HealthSchema } from "../../src/api/mod.ts";
import {
  LOOKUPS,
  OPERATOR,
  ORG_MODE_IDENTITY,
  PYPI,
  QUICKSTART_SERVER,
} from "../helpers/requires.ts";

Deno.test(
  "check a package before adding it",
  workflow(
    "Check a package before adding it",
    "Ask policyd whether a Python package may be added to a project, and act on the verdict.",
    async () => {
      const app = await workflowApp("check");
      try {
        const client = new AgentTestClient(app.built.app);
        const known = await client.get("/api/v1/evaluate", {
          query: { package: "requests", project: "shop-api" },
        });
        equal(known.status, 200);
        equal(known.json<{ verdict: string }>().verdict, "ALLOWED");
        const unknown = await client.get("/api/v1/evaluate", {
          query: { package: "black", version: "19.10b0", project: "shop-api" },
        });
        const body = unknown.json<{ verdict: string; license: string }>();
        exactly(EvaluationSchema, body);
        equal(body.verdict, "PROVISIONALLY_ALLOWED");
        equal(body.license, "MIT");
        await stepBoundary(
          "Client-side logic",
          "Decide: ALLOWED → add it; PROVISIONALLY_ALLOWED → add it and request approval; DENIED → do not add it",
          () => {
            ok(["ALLOWED", "PROVISIONALLY_ALLOWED"].includes(body.verdict));
          },
        );
      } finally {
        await app.close();
      }
    },
    {
      requires: [QUICKSTART_SERVER, ORG_MODE_IDENTITY, LOOKUPS],
    },
  ),
);

Deno.test(
  "a denied package with its replacement",
  workflow(
    "Replace a denied package",
    "When policyd denies a package, read the denial category, evaluate the suggested replacement to learn its latest release, and check that pinned release.",
    async () => {
      const app = await workflowApp("denied");
      try {
        const client = new AgentTestClient(app.built.app);
        const denied = await client.get("/api/v1/evaluate", {
          query: { package: "pycrypto", project: "shop-api" },
        });
        const body = denied.json<
          { verdict: string; denial_category: string; replacement: string }
        >();
        deepStrictEqual([body.verdict, body.denial_category, body.replacement], [
          "DENIED",
          "DENIAL_BANNED",
          "cryptography",
        ]);
        const candidate = await client.get("/api/v1/evaluate", {
          query: { package: body.replacement, project: "shop-api" },
        });
        const latest = candidate.json<{ latest_version: string | null }>().latest_version;
        equal(latest, "46.0.7");
        const pinned = await stepBoundary(
          "Client-side logic",
          "Pin the replacement to the `latest_version` policyd reported for it (PyPI's latest release)",
          () => ({ package: body.replacement, version: latest! }),
        );
        const check = await client.get("/api/v1/evaluate", {
          query: { ...pinned, project: "shop-api" },
        });
        equal(check.json<{ verdict: string }>().verdict, "ALLOWED");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        ORG_MODE_IDENTITY,
        LOOKUPS,
        "`latest_version` comes from PyPI: when it is `null` (PyPI unavailable), check the " +
        "replacement without a version and pin what your resolver installs",
      ],
    },
  ),
);

Deno.test(
  "request approval for a new package",
  workflow(
    "Request approval for a new package",
    "File a non-blocking request to add a provisionally allowed package to the registry, then see it in the queue. The request approves nothing by itself: an operator decides.",
    async () => {
      // The proposer `policyd quickstart` runs: a request waits for an operator (`queued`).
      const app = await workflowApp("request", { env: { REGISTRY_PROPOSER: "local_file" } });
      try {
        const client = new AgentTestClient(app.built.app);
        const check = await client.get("/api/v1/evaluate", {
          query: { package: "isort", project: "shop-api" },
        });
        equal(check.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
        const request = await client.post("/api/v1/approval-requests", {
          query: { project: "shop-api" },
          json: {
            package: "isort",
            rationale: "Sort imports in CI; replaces our hand-written script.",
          },
        });
        equal(request.status, 202);
        equal(request.json<{ status: string }>().status, "PENDING_REVIEW");
        match(
          request.json<{ message: string }>().message,
          /^filed for review \(id \d+\); not approved yet$/,
        );
        const list = await client.get("/api/v1/approval-requests", {
          query: { project: "shop-api" },
        });
        equal(list.status, 200);
        const items = list.json<{ items: Array<{ package: string; count: number }> }>().items;
        equal(items[0].package, "isort");
        equal(items[0].count, 1);
        // The proposer runs after the 202; wait for it so the recorded outcome is stable.
        await app.built.deps.approvals.idle();
        const id = request.json<{ id: number }>().id;
        const one = await client.get(`/api/v1/approval-requests/${id}`);
        equal(one.status, 200);
        equal(one.json<{ proposal_status: string }>().proposal_status, "queued");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        ORG_MODE_IDENTITY,
        PYPI + ": the package must exist for the evaluation to be PROVISIONALLY_ALLOWED",
        "`proposal_status` depends on REGISTRY_PROPOSER (see Settings): `queued` with " +
        "local_file or local_git (quickstart's, shown here: the request waits for an operator), " +
        "`logged` with log_only, `opened` with github",
      ],
    },
  ),
);

Deno.test(
  "operator reviews the pending queue and approves through a proposal",
  workflow(
    "Review the pending queue and approve a package (local_file proposer)",
    "As an operator, read the review queue, classify a package through the configured proposer, and see the rule live.",
    async () => {
      const app = await workflowApp("review", { env: { REGISTRY_PROPOSER: "local_file" } });
      try {
        const client = new AgentTestClient(app.built.app);
        const first = await client.get("/api/v1/evaluate", {
          query: { package: "isort", project: "shop-api" },
        });
        equal(first.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
        const pending = await client.get("/api/v1/registry/pending", { query: { days: "30" } });
        const items = pending.json<{ items: Array<{ package: string; reason: string }> }>().items;
        deepStrictEqual(items.map((i) => [i.package, i.reason]), [[
          "isort",
          "provisional-no-rationale",
        ]]);
        const proposal = await client.post("/api/v1/registry/proposals", {
          json: {
            rule: { name: "isort", status: "approved", reason: "Formatter used across teams" },
            context: { rationale: "Reviewed by the platform team" },
          },
        });
        equal(proposal.status, 200);
        equal(proposal.json<{ result: { status: string } }>().result.status, "applied");
        const after = await client.get("/api/v1/evaluate", {
          query: { package: "isort", project: "shop-api" },
        });
        equal(after.json<{ verdict: string }>().verdict, "ALLOWED");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        OPERATOR,
        "REGISTRY_PROPOSER=local_file (or local_git; quickstart's) with REGISTRY_PATH in a " +
        "writable directory: the rule is written and live at once",
        LOOKUPS,
      ],
    },
  ),
);

Deno.test(
  "reload after a registry merge",
  workflow(
    "Reload the registry after a pull request is merged",
    "Deliver the git host's merge webhook (headers X-GitHub-Event: pull_request, a unique X-GitHub-Delivery id and X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the exact raw body bytes, keyed with REGISTRY_WEBHOOK_SECRET>) so policyd pulls the merged registry and reloads it atomically.",
    async () => {
      const root = await Deno.makeTempDir({ prefix: "policyd-wf-git-" });
      const example = await readExampleRegistry();
      const remote = await createBareRemote(root, { "registry/registry.yaml": example });
      const clone = join(root, "server-clone");
      await git(["clone", "--quiet", remote.bare, clone]);
      const secret = "merge-webhook-secret";
      const app = await workflowApp("merge", {
        registryPath: join(clone, "registry", "registry.yaml"),
        env: { REGISTRY_WEBHOOK_SECRET: secret, REGISTRY_PROPOSER: "log_only" },
      });
      try {
        const client = new AgentTestClient(app.built.app);
        const before = await client.get("/api/v1/evaluate", { query: { package: "isort" } });
        equal(before.json<{ verdict: string }>().verdict, "PROVISIONALLY_ALLOWED");
        await stepBoundary(
          "Git host",
          "A reviewer merges the pull request that adds isort",
          async () => {
            await remote.commitOnMain(
              "registry/registry.yaml",
              example.replace('version: "2026.11.21"', 'version: "2026.11.22"') +
                '  - name: isort\n    status: approved\n    reason: "import sorting"\n',
            );
          },
        );
        const payload = {
          action: "closed",
          number: 42,
          pull_request: {
            number: 42,
            merged: true,
            base: { ref: "main" },
            head: { ref: "policy/approval/isort" },
          },
          repository: { full_name: "acme/policy-registry", default_branch: "main" },
        };
        const signature = await signBody(secret, new TextEncoder().encode(JSON.stringify(payload)));
        const res = await client.post("/api/v1/registry/webhook", {
          json: payload,
          headers: {
            "x-github-event": "pull_request",
            "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
            "x-hub-signature-256": signature,
          },
        });
        equal(res.status, 200);
        const reload = res.json<{ reload: { ok: boolean; new_version: string } }>().reload;
        deepStrictEqual([reload.ok, reload.new_version], [true, "2026.11.22"]);
        const after = await client.get("/api/v1/evaluate", { query: { package: "isort" } });
        equal(after.json<{ verdict: string }>().verdict, "ALLOWED");
      } finally {
        await app.close();
        await Deno.remove(root, { recursive: true }).catch(() => {});
      }
    },
    {
      requires: [
        "REGISTRY_WEBHOOK_SECRET set on the server (without it every delivery is 403)",
        "only `pull_request` with `action: closed` and `pull_request.merged: true` triggers the " +
        "pull; `ping` is answered, any other event or action is `202 {ignored: true}`",
        "a git-backed registry: REGISTRY_PATH inside a git clone whose remote receives the merge",
        "no identity: the signature authenticates the delivery, also in org mode",
      ],
    },
  ),
);

Deno.test(
  "audit a project's dependencies in one batch",
  workflow(
    "Audit a project's dependencies in one batch",
    "Evaluate every runtime dependency of a project in one call (up to 500) and act on each verdict.",
    async () => {
      const app = await workflowApp("audit");
      try {
        const client = new AgentTestClient(app.built.app);
        const res = await client.post("/api/v1/evaluate/batch", {
          query: { project: "shop-api" },
          json: {
            packages: [
              { package: "requests" },
              { package: "pyyaml", version: "5.3" },
              { package: "nose" },
              { package: "black", version: "19.10b0" },
            ],
          },
        });
        equal(res.status, 200);
        const results =
          res.json<{ results: Array<{ package: string; verdict: string }> }>().results;
        deepStrictEqual(results.map((r) => r.verdict), [
          "ALLOWED",
          "DENIED",
          "DENIED",
          "PROVISIONALLY_ALLOWED",
        ]);
        await stepBoundary(
          "Client-side logic",
          "Fail the audit when any result is DENIED; list PROVISIONALLY_ALLOWED ones for review",
          () => ok(results.some((r) => r.verdict === "DENIED")),
        );
      } finally {
        await app.close();
      }
    },
    {
      requires: [QUICKSTART_SERVER, ORG_MODE_IDENTITY, LOOKUPS],
    },
  ),
);

Deno.test(
  "read the security report",
  workflow(
    "Read the security report",
    "See which packages were denied for known vulnerabilities, with CVE ids and severities.",
    async () => {
      const app = await workflowApp("security");
      try {
        const client = new AgentTestClient(app.built.app);
        const denied = await client.get("/api/v1/evaluate", {
          query: { package: "cryptography", version: "46.0.6", project: "shop-api" },
        });
        equal(denied.json<{ denial_category: string }>().denial_category, "DENIAL_CVE");
        const report = await client.get("/api/v1/reports/security", {
          query: { project: "shop-api", days: "30", limit: "5" },
        });
        equal(report.status, 200);
        const body = report.json<{ total_denials: number; top_cves: Array<{ cve: string }> }>();
        equal(body.total_denials, 1);
        equal(body.top_cves[0].cve, "CVE-2026-39892");
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        ORG_MODE_IDENTITY,
        LOOKUPS + "; the report lists the CVEs OSV reported for the evaluations in its window",
      ],
    },
  ),
);

Deno.test(
  "validate a registry change before committing it",
  workflow(
    "Validate a registry change before committing it",
    "Send registry YAML to parse-yaml, read the path-qualified errors, fix them and validate again.",
    async () => {
      const app = await workflowApp("validate");
      try {
        const client = new AgentTestClient(app.built.app);
        const bad = await client.post("/api/v1/registry/parse-yaml", {
          json: { yaml: "packages:\n  - name: isort\n    status: allowed\n" },
        });
        equal(bad.status, 422);
        const errors = bad.json<{ errors: Array<{ path: string }> }>().errors;
        equal(errors[0].path, "packages[0].status");
        const good = await client.post("/api/v1/registry/parse-yaml", {
          json: { yaml: "packages:\n  - name: isort\n    status: approved\n" },
        });
        equal(good.status, 200);
        equal(good.json<{ ok: boolean }>().ok, true);
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        "nothing beyond a running server (no upstream, no registry change: the YAML is only " +
        "validated)",
        ORG_MODE_IDENTITY,
      ],
    },
  ),
);

Deno.test(
  "check the service before relying on it",
  workflow(
    "Check that policyd is up",
    "Probe the health endpoint before a batch of calls; it needs no authentication.",
    async () => {
      // As `policyd quickstart` serves it: the local_file proposer.
      const app = await workflowApp("health", { env: { REGISTRY_PROPOSER: "local_file" } });
      try {
        const client = new AgentTestClient(app.built.app);
        const res = await client.get("/api/v1/health");
        equal(res.status, 200);
        equal(res.json<{ status: string }>().status, "ok");
        // The recorded example has exactly the contract's members: a field the route adds or
        // drops without the contract fails here.
        exactly(HealthSchema, res.json());
      } finally {
        await app.close();
      }
    },
    {
      requires: [
        "nothing: the health route is public, also in org mode",
        "`scanner.last_pass` appears after a scanner pass (CVE_SCAN_SCHEDULE); `upstreams` " +
        "stay `unknown` until a lookup reached OSV or PyPI; `proposer` shows REGISTRY_PROPOSER " +
        "or what auto-detection chose",
      ],
    },
  ),
);
