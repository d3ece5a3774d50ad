import assert from "node:assert/strict";
import { join } from "node:path";
import { call, mergedPullRequest, signedDelivery } from "../helpers/approvals.ts";
import { createBareRemote, git } from "../helpers/git_fixture.ts";
import { startTestServer } from "../helpers/server.ts";

const SECRET = "webhook-secret-for-tests";
const REGISTRY = "packages:\n  - name: requests\n    status: preferred\n";
const WITH_LEFT_PAD = REGISTRY + "  - name: left-pad\n    status: approved\n";

const post = (url: string, delivery: { body: Uint8Array; headers: Record<string, string> }) =>
  call(url, "POST", "/api/v1/registry/webhook", delivery);

Deno.test("the webhook answers 403 without a configured secret", async () => {
  const server = await startTestServer({ registryYaml: REGISTRY });
  try {
    const res = await post(server.url, await signedDelivery("anything", "ping", { zen: "hi" }));
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
  } finally {
    await server.close();
  }
});

Deno.test("the webhook checks the signature and dispatches events", async (t) => {
  const lines: string[] = [];
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: { REGISTRY_WEBHOOK_SECRET: SECRET, AUTH_ENABLED: "true" },
    logLines: lines,
  });
  try {
    await t.step(
      "missing or wrong signature → 401 (no authentication needed to get there)",
      async () => {
        const good = await signedDelivery(SECRET, "ping", { zen: "hi" });
        const { "x-hub-signature-256": _, ...unsigned } = good.headers;
        assert.equal((await post(server.url, { body: good.body, headers: unsigned })).status, 401);
        const wrong = await signedDelivery("not-the-secret", "ping", { zen: "hi" });
        assert.equal((await post(server.url, wrong)).status, 401);
        const tampered = new Uint8Array(good.body);
        tampered[tampered.length - 2] ^= 1;
        assert.equal(
          (await post(server.url, { body: tampered, headers: good.headers })).status,
          401,
        );
      },
    );
    await t.step("ping → 200", async () => {
      const res = await post(
        server.url,
        await signedDelivery(SECRET, "ping", { zen: "hi", hook_id: 1 }),
      );
      assert.equal(res.status, 200);
      assert.equal(res.body.event, "ping");
    });
    await t.step("X-Git-Host-Event works too", async () => {
      const delivery = await signedDelivery(SECRET, "ping", {});
      const { "x-github-event": _, ...headers } = delivery.headers;
      const res = await post(server.url, {
        body: delivery.body,
        headers: { ...headers, "x-git-host-event": "ping" },
      });
      assert.equal(res.status, 200);
    });
    await t.step("other events and unmerged closes → 202 ignored", async () => {
      const push = await post(
        server.url,
        await signedDelivery(SECRET, "push", { ref: "refs/heads/main" }),
      );
      assert.equal(push.status, 202);
      assert.equal(push.body.ignored, true);
      const closed = mergedPullRequest("policy/approval/x");
      closed.pull_request.merged = false;
      assert.equal(
        (await post(server.url, await signedDelivery(SECRET, "pull_request", closed))).status,
        202,
      );
      const opened = { ...mergedPullRequest("policy/approval/x"), action: "opened" };
      assert.equal(
        (await post(server.url, await signedDelivery(SECRET, "pull_request", opened))).status,
        202,
      );
    });
    await t.step("signed garbage → 400, missing event → 400", async () => {
      const body = new TextEncoder().encode("{not json");
      const signed = await signedDelivery(SECRET, "pull_request", {});
      const { signBody } = await import("../../src/approvals/webhook.ts");
      const headers = { ...signed.headers, "x-hub-signature-256": await signBody(SECRET, body) };
      assert.equal((await post(server.url, { body, headers })).status, 400);
      const { "x-github-event": _, ...noEvent } = signed.headers;
      assert.equal((await post(server.url, { body: signed.body, headers: noEvent })).status, 400);
    });
    assert.equal(lines.some((l) => l.includes(SECRET)), false);
  } finally {
    await server.close();
  }
});

Deno.test("a merged pull request reloads a registry that is not in git, approving pending requests", async () => {
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: { REGISTRY_WEBHOOK_SECRET: SECRET, REGISTRY_PROPOSER: "log_only" },
  });
  try {
    for (const project of ["web", "api"]) {
      const res = await call(server.url, "POST", "/api/v1/approval-requests", {
        json: { package: "left-pad", rationale: "padding" },
        headers: { "x-policy-project": project },
      });
      assert.equal(res.status, 202);
    }
    await Deno.writeTextFile(server.registryPath, WITH_LEFT_PAD);
    const res = await post(
      server.url,
      await signedDelivery(SECRET, "pull_request", mergedPullRequest("b")),
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.reload.ok, true);
    assert.equal(res.body.reload.approved_requests, 2);
    assert.equal(res.body.reload.added_packages, 1);
  } finally {
    await server.close();
  }
});

Deno.test("with a git work tree the webhook runs git pull --ff-only; a failed pull answers 502 and keeps the registry", async () => {
  const root = await Deno.makeTempDir({ prefix: "policyd-webhook-" });
  const remote = await createBareRemote(root, { "registry/registry.yaml": REGISTRY });
  const clone = join(root, "live");
  await git(["clone", "--quiet", remote.bare, clone]);
  const registryPath = join(clone, "registry", "registry.yaml");
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: { REGISTRY_WEBHOOK_SECRET: SECRET, REGISTRY_PATH: registryPath },
  });
  try {
    assert.equal((await call(server.url, "GET", "/api/v1/health")).body.proposer, "local_git");
    await remote.commitOnMain("registry/registry.yaml", WITH_LEFT_PAD);
    const pulled = await post(
      server.url,
      await signedDelivery(SECRET, "pull_request", mergedPullRequest("b")),
    );
    assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
    assert.equal(pulled.body.reload.new_version !== pulled.body.reload.previous_version, true);
    assert.equal(await Deno.readTextFile(registryPath), WITH_LEFT_PAD);
    const registry = await call(server.url, "GET", "/api/v1/registry");
    assert.ok(registry.body.packages.some((p: { name: string }) => p.name === "left-pad"));

    await remote.commitOnMain(
      "registry/registry.yaml",
      WITH_LEFT_PAD + "  - name: attrs\n    status: approved\n",
    );
    await Deno.rename(remote.bare, remote.bare + ".gone");
    const before = await call(server.url, "GET", "/api/v1/registry");
    const failed = await post(
      server.url,
      await signedDelivery(SECRET, "pull_request", mergedPullRequest("c")),
    );
    assert.equal(failed.status, 502);
    assert.equal(failed.headers.get("content-type"), "application/problem+json");
    assert.match(failed.body.detail, /git pull --ff-only failed/);
    const after = await call(server.url, "GET", "/api/v1/registry");
    assert.equal(after.body.version, before.body.version);
    assert.equal(await Deno.readTextFile(registryPath), WITH_LEFT_PAD);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
