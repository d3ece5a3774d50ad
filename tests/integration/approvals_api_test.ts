import assert from "node:assert/strict";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { NewAuditRow } from "../../src/store/types.ts";
import { call, waitForProposal } from "../helpers/approvals.ts";
import { startTestServer } from "../helpers/server.ts";

const ask = (project: string) => ({ headers: { "x-policy-project": project } });

Deno.test("an approval request answers 202, changes nothing, and waits for an operator's approval", async () => {
  const server = await startTestServer();
  try {
    const health = await call(server.url, "GET", "/api/v1/health");
    assert.equal(health.body.proposer, "local_file");
    const before = await Deno.readTextFile(server.registryPath);
    const first = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: "Left_Pad", rationale: "string padding for the report export" },
      ...ask("web"),
    });
    assert.equal(first.status, 202);
    assert.equal(first.body.package, "left-pad");
    assert.equal(first.body.status, "PENDING_REVIEW");
    assert.equal(typeof first.body.id, "number");
    assert.equal(first.body.message, `filed for review (id ${first.body.id}); not approved yet`);
    const outcome = await waitForProposal(server.url, first.body.id);
    assert.equal(outcome.proposal_status, "queued", outcome.proposal_detail);
    assert.match(outcome.proposal_detail, /runs only when an operator approves/);
    assert.equal(await Deno.readTextFile(server.registryPath), before, "the file is unchanged");
    const registry = await call(server.url, "GET", "/api/v1/registry");
    assert.ok(!registry.body.packages.some((p: { name: string }) => p.name === "left-pad"));
    const pending = await call(server.url, "GET", "/api/v1/approval-requests", ask("web"));
    assert.deepEqual(pending.body.items.map((i: { package: string }) => i.package), ["left-pad"]);

    // The operator approves (what the workshop's Approve and `policy approve` send).
    const approve = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "left-pad", status: "approved", reason: "reviewed: report export" } },
    });
    assert.equal(approve.status, 200);
    assert.equal(approve.body.result.status, "applied", approve.body.result.detail);
    const approved = await call(
      server.url,
      "GET",
      "/api/v1/approval-requests?status=APPROVED",
      ask("web"),
    );
    assert.deepEqual(approved.body.items.map((i: { package: string }) => i.package), ["left-pad"]);
    const stored = await call(server.url, "GET", `/api/v1/approval-requests/${first.body.id}`);
    assert.equal(stored.body.status, "APPROVED");
    assert.match(await Deno.readTextFile(server.registryPath), /name: left-pad/);
  } finally {
    await server.close();
  }
});

Deno.test("a reload approves pending requests only for packages the new rule allows", async () => {
  const server = await startTestServer();
  try {
    const file = (pkg: string) =>
      call(server.url, "POST", "/api/v1/approval-requests", {
        json: { package: pkg, rationale: "needed for the migration" },
      });
    const status = async (id: number) =>
      (await call(server.url, "GET", `/api/v1/approval-requests/${id}`)).body.status;
    const propose = async (name: string, rule: Record<string, string>) => {
      const res = await call(server.url, "POST", "/api/v1/registry/proposals", {
        json: { rule: { name, reason: "operator decision", ...rule } },
      });
      assert.equal(res.body.result.status, "applied", res.body.result.detail);
    };
    // pycrypto is banned in the example registry: its request must never flip (issue #34).
    const banned = (await file("pycrypto")).body.id;
    const later = (await file("oldcrypt")).body.id;
    const constrained = (await file("newcrypt")).body.id;
    await waitForProposal(server.url, constrained);

    await propose("oldcrypt", { status: "banned" });
    assert.equal(
      await status(banned),
      "PENDING_REVIEW",
      "a banned package's request stays pending",
    );
    assert.equal(await status(later), "PENDING_REVIEW", "banning does not approve");
    await propose("oldcrypt", { status: "deprecated", replacement: "cryptography" });
    assert.equal(await status(later), "PENDING_REVIEW", "deprecating does not approve");
    await propose("newcrypt", { status: "version-constrained", min_version: "2.0" });
    assert.equal(await status(constrained), "APPROVED");
    assert.equal(await status(banned), "PENDING_REVIEW");
    await propose("oldcrypt", { status: "approved" });
    assert.equal(await status(later), "APPROVED");
    assert.equal(await status(banned), "PENDING_REVIEW");
  } finally {
    await server.close();
  }
});

Deno.test("GET /approval-requests filters by project first, then collapses per package", async () => {
  // log_only keeps every request pending, so the listing is stable.
  const server = await startTestServer({ env: { REGISTRY_PROPOSER: "log_only" } });
  try {
    const post = (project: string, pkg: string, rationale: string) =>
      call(server.url, "POST", "/api/v1/approval-requests", {
        json: { package: pkg, rationale },
        ...ask(project),
      });
    assert.equal((await post("web", "attrs", "first")).status, 202);
    assert.equal((await post("api", "attrs", "second")).status, 202);
    assert.equal((await post("web", "attrs", "third")).status, 202);
    assert.equal((await post("api", "rich==13.7.0", "pretty output")).status, 202);

    const web = await call(server.url, "GET", "/api/v1/approval-requests?project=web");
    assert.equal(web.status, 200);
    assert.deepEqual(
      web.body.items.map((i: { package: string; count: number }) => [i.package, i.count]),
      [["attrs", 2]],
    );
    assert.deepEqual(web.body.items[0].projects, ["web"]);
    assert.equal(web.body.items[0].rationale, "third");

    const all = await call(server.url, "GET", "/api/v1/approval-requests?project=*");
    const attrs = all.body.items.find((i: { package: string }) => i.package === "attrs");
    assert.equal(attrs.count, 3);
    assert.deepEqual(attrs.projects, ["api", "web"]);
    assert.deepEqual(attrs.requesters, ["local"]);
    assert.equal(attrs.status, "PENDING_REVIEW");
    assert.ok(all.body.items.some((i: { package: string }) => i.package === "rich"));

    const mine = await call(server.url, "GET", "/api/v1/approval-requests", ask("api"));
    assert.deepEqual(mine.body.items.map((i: { package: string }) => i.package).sort(), [
      "attrs",
      "rich",
    ]);
    const nobody = await call(server.url, "GET", "/api/v1/approval-requests");
    assert.deepEqual(nobody.body.items, []);
    const allStatuses = await call(
      server.url,
      "GET",
      "/api/v1/approval-requests?project=*&status=all",
    );
    assert.equal(allStatuses.body.items.length, 2);
    const approved = await call(
      server.url,
      "GET",
      "/api/v1/approval-requests?project=*&status=APPROVED",
    );
    assert.deepEqual(approved.body.items, []);

    const bad = await call(server.url, "GET", "/api/v1/approval-requests?status=pending");
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get("content-type"), "application/problem+json");
  } finally {
    await server.close();
  }
});

Deno.test("POST /approval-requests rejects invalid input with 400 problems", async (t) => {
  const server = await startTestServer({ env: { REGISTRY_PROPOSER: "log_only" } });
  try {
    const cases: Array<[string, unknown]> = [
      ["missing rationale", { package: "attrs" }],
      ["empty rationale", { package: "attrs", rationale: "  " }],
      ["missing package", { rationale: "x" }],
      ["invalid name", { package: "not a package!", rationale: "x" }],
      ["invalid version", { package: "attrs", version: "one", rationale: "x" }],
      ["not an object", ["attrs"]],
    ];
    for (const [name, body] of cases) {
      await t.step(name, async () => {
        const res = await call(server.url, "POST", "/api/v1/approval-requests", { json: body });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.status, 400);
      });
    }
    await t.step("not JSON", async () => {
      const res = await call(server.url, "POST", "/api/v1/approval-requests", {
        body: "package=attrs",
        headers: { "content-type": "application/json" },
      });
      assert.equal(res.status, 400);
    });
    await t.step("a form body is not accepted at all (415, SPEC §16.2)", async () => {
      const res = await call(server.url, "POST", "/api/v1/approval-requests", {
        body: "package=attrs",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      assert.equal(res.status, 415);
    });
    await t.step("unknown id", async () => {
      assert.equal((await call(server.url, "GET", "/api/v1/approval-requests/999")).status, 404);
      assert.equal((await call(server.url, "GET", "/api/v1/approval-requests/abc")).status, 400);
    });
  } finally {
    await server.close();
  }
});

Deno.test("a request for a package already in the registry never rewrites its rule", async () => {
  const server = await startTestServer();
  try {
    const before = await Deno.readTextFile(server.registryPath);
    const res = await call(server.url, "POST", "/api/v1/approval-requests", {
      json: { package: "pycrypto", rationale: "legacy code needs it" },
    });
    assert.equal(res.status, 202);
    const outcome = await waitForProposal(server.url, res.body.id);
    assert.equal(outcome.proposal_status, "skipped");
    assert.match(outcome.proposal_detail, /already in the registry as banned/);
    assert.equal(await Deno.readTextFile(server.registryPath), before);
  } finally {
    await server.close();
  }
});

Deno.test("POST /registry/proposals validates the body and runs the proposer", async (t) => {
  const server = await startTestServer();
  try {
    await t.step("no rule → 400", async () => {
      for (const body of [{}, { rule: null }, { context: {} }]) {
        const res = await call(server.url, "POST", "/api/v1/registry/proposals", { json: body });
        assert.equal(res.status, 400);
      }
    });
    await t.step("invalid rule → 422 with errors, file untouched", async () => {
      const before = await Deno.readFile(server.registryPath);
      const res = await call(server.url, "POST", "/api/v1/registry/proposals", {
        json: { rule: { name: "attrs", status: "whitelisted" } },
      });
      assert.equal(res.status, 422);
      assert.ok(res.body.errors.some((e: { path: string }) => e.path === "rule.status"));
      assert.deepEqual(await Deno.readFile(server.registryPath), before);
    });
    await t.step("valid rule → 200 applied and live", async () => {
      const res = await call(server.url, "POST", "/api/v1/registry/proposals", {
        json: {
          rule: { name: "Attrs", status: "preferred", reason: "house style" },
          context: { rationale: "triage" },
        },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.result.backend, "local_file");
      assert.equal(res.body.result.status, "applied", res.body.result.detail);
      const evaluation = await call(server.url, "GET", "/api/v1/evaluate?package=attrs");
      assert.equal(evaluation.body.registry_status, "preferred");
    });
  } finally {
    await server.close();
  }
});

Deno.test("POST /registry/proposals with log_only says the rule is only logged", async () => {
  const server = await startTestServer({ env: { REGISTRY_PROPOSER: "log_only" } });
  try {
    const res = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: { rule: { name: "tiny-helper", status: "approved" } },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.result.status, "logged");
    assert.match(res.body.result.detail, /only logged/);
    const registry = await call(server.url, "GET", "/api/v1/registry");
    assert.equal(
      registry.body.packages.some((p: { name: string }) => p.name === "tiny-helper"),
      false,
    );
  } finally {
    await server.close();
  }
});

Deno.test("POST /registry/proposals is operator-only in org mode", async () => {
  const server = await startTestServer({ env: { AUTH_ENABLED: "true", AUTH_BACKEND: "header" } });
  try {
    const rule = { rule: { name: "attrs", status: "approved" } };
    const user = { "x-forwarded-user": "ana", "x-forwarded-groups": "developers" };
    const admin = { "x-forwarded-user": "root", "x-forwarded-groups": "developers,policy-admins" };
    const denied = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: rule,
      headers: user,
    });
    assert.equal(denied.status, 403);
    const pending = await call(server.url, "GET", "/api/v1/registry/pending", { headers: user });
    assert.equal(pending.status, 200);
    const allowed = await call(server.url, "POST", "/api/v1/registry/proposals", {
      json: rule,
      headers: admin,
    });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.body.result.status, "applied");
  } finally {
    await server.close();
  }
});

function auditRow(
  pkg: string,
  verdict: NewAuditRow["verdict"],
  source = "api",
  project = "web",
): NewAuditRow {
  return {
    package: pkg,
    version: null,
    license: null,
    verdict,
    project,
    requester: "local",
    agent_model: null,
    agent_version: null,
    source,
    denial_category: verdict === "DENIED" ? "DENIAL_LICENSE" : null,
    cve_ids: [],
    max_cvss: null,
    registry_status: null,
    registry_version: null,
    license_raw: null,
    reason: "seeded",
  };
}

Deno.test("GET /registry/pending orders reasons by signal, then recency, and leaves registry packages out", async () => {
  const server = await startTestServer({ env: { REGISTRY_PROPOSER: "log_only" } });
  const day = 86_400_000;
  let clock = Date.now();
  const seed = openSqliteStore(server.dbPath, { now: () => new Date(clock) });
  try {
    const at = async (daysAgo: number, rows: NewAuditRow[]) => {
      clock = Date.now() - daysAgo * day;
      for (const row of rows) await seed.audit.insert(row);
    };
    await at(5, [
      auditRow("alpha-req", "DENIED"),
      auditRow("alpha-req", "DENIED"),
      auditRow("alpha-req", "DENIED"),
    ]);
    await at(2, [
      auditRow("beta-prov", "PROVISIONALLY_ALLOWED"),
      auditRow("beta-prov", "ALLOWED", "check", "api"),
    ]);
    await at(1, [auditRow("iota-prov", "PROVISIONALLY_ALLOWED")]);
    await at(3, [auditRow("gamma-asked", "PROVISIONALLY_ALLOWED")]);
    await at(4, [
      auditRow("delta-denied", "DENIED"),
      auditRow("delta-denied", "DENIED"),
      auditRow("delta-denied", "DENIED", "hook", "api"),
    ]);
    await at(1, [auditRow("epsilon-denied", "DENIED"), auditRow("epsilon-denied", "DENIED")]);
    await at(6, [
      auditRow("zeta-check", "ALLOWED", "check"),
      auditRow("zeta-check", "ALLOWED", "check"),
    ]);
    await at(1, [
      auditRow("eta-mixed", "ALLOWED", "check"),
      auditRow("eta-mixed", "ALLOWED", "api"),
    ]);
    await at(1, [auditRow("requests", "PROVISIONALLY_ALLOWED")]);
    await at(40, [auditRow("theta-old", "PROVISIONALLY_ALLOWED")]);
    // gamma-asked had an approval request once (now approved): no longer "provisional-no-rationale".
    clock = Date.now() - 3 * day;
    const old = await seed.approvals.create({
      package: "gamma-asked",
      version: null,
      project: "web",
      requester: "local",
      rationale: "asked before",
      agent_model: null,
      agent_version: null,
    });
    await seed.approvals.approvePackages([old.package], new Date().toISOString());

    for (const [project, rationale] of [["a", "first"], ["b", "second"]]) {
      const res = await call(server.url, "POST", "/api/v1/approval-requests", {
        json: { package: "alpha-req", rationale },
        ...ask(project),
      });
      assert.equal(res.status, 202);
    }

    const res = await call(server.url, "GET", "/api/v1/registry/pending");
    assert.equal(res.status, 200);
    const rows = res.body.items.map((
      i: { package: string; reason: string; count: number },
    ) => [i.package, i.reason, i.count]);
    assert.deepEqual(rows, [
      ["alpha-req", "requested", 2],
      ["iota-prov", "provisional-no-rationale", 1],
      ["beta-prov", "provisional-no-rationale", 2],
      ["delta-denied", "repeatedly-denied", 3],
      ["zeta-check", "pre-screened", 2],
    ]);
    const alpha = res.body.items[0];
    assert.deepEqual(alpha.projects, ["a", "b"]);
    assert.equal(alpha.rationale, "second");
    assert.equal(typeof alpha.last_seen, "string");
    assert.deepEqual(res.body.items[3].projects, ["api", "web"]);
    assert.equal(res.body.items[1].rationale, undefined);

    const wider = await call(server.url, "GET", "/api/v1/registry/pending?days=60");
    assert.ok(wider.body.items.some((i: { package: string }) => i.package === "theta-old"));
    assert.equal((await call(server.url, "GET", "/api/v1/registry/pending?days=0")).status, 400);
    assert.equal((await call(server.url, "GET", "/api/v1/registry/pending?days=x")).status, 400);
  } finally {
    await seed.close();
    await server.close();
  }
});
