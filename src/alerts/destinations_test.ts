/**
 * The destinations against real loopback receivers: the GitHub issue
 * destination through Octokit on the fake GitHub (one open issue per package
 * and event kind, commented on afterwards), the Slack-compatible webhook's
 * blocks and dashboard link, the routing by events and minimum severity.
 */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { Octokit } from "@octokit/rest";
import { startFakeGithub } from "../../tests/helpers/fake_github.ts";
import { leftPadRequest } from "../../tests/helpers/alert_samples.ts";
import { ALERT_LABEL, githubDestination, issueTitle } from "./github.ts";
import { slackDestination } from "./slack.ts";
import { accepts, DeliveryError } from "./destination.ts";
import { cveAlertEvent, requestFiledEvent } from "./events.ts";

const QUIET = { debug() {}, info() {}, warn() {}, error() {} };

const cve = (id: number, pkg = "jinja2") =>
  cveAlertEvent({
    audit_id: id,
    package: pkg,
    version: null,
    cve_ids: ["CVE-2024-22195"],
    max_cvss: 9.1,
    registry_status: "approved",
    reason: "CVE scan: 1 vulnerability in scope",
    ts: "2026-11-26T06:00:00.000Z",
  });

Deno.test("github: one open issue per package and event kind, later events are comments", async () => {
  const github = startFakeGithub("acme", "registry");
  try {
    const destination = githubDestination({
      repo: "acme/registry",
      dashboardUrl: "https://policyd.example",
      timeoutMs: 5000,
      events: ["cve_alert"],
      minSeverity: "info",
      octokit: new Octokit({ auth: "test-token", baseUrl: github.url, log: QUIET }),
    });
    await destination.deliver(cve(1));
    await destination.deliver(cve(2));
    await destination.deliver(cve(3, "urllib3"));
    deepStrictEqual(github.issues.map((i) => [i.title, i.labels, i.comments.length]), [
      ["[policyd] cve_alert: jinja2", [ALERT_LABEL], 1],
      ["[policyd] cve_alert: urllib3", [ALERT_LABEL], 0],
    ]);
    ok(github.issues[0].body.includes("https://policyd.example/dashboard/package/jinja2"));
    ok(github.issues[0].comments[0].includes("cve_alert:audit:2"));
    await destination.deliver({ ...cve(9), title: "asked by @octocat for #1" });
    ok(github.issues[0].comments[1].startsWith("`` asked by @octocat for #1 ``"), "inert");
    equal(github.calls.find((c) => c.method === "POST")?.authorization, "token test-token");
    github.issues[0].state = "closed";
    await destination.deliver(cve(4));
    equal(github.issues.length, 3, "a closed issue is not reopened: a new one is filed");
    github.failNext("issues.create", 502);
    await rejects(destination.deliver(cve(5, "rich")), DeliveryError);
    equal(issueTitle(cve(5, "rich")), "[policyd] cve_alert: rich");
  } finally {
    await github.close();
  }
});

Deno.test("slack: header, fields and a button linking to the package's dashboard page", async () => {
  const bodies: Array<Record<string, unknown>> = [];
  let status = 200;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    bodies.push(await r.json());
    return new Response(status === 200 ? "ok" : "invalid_payload", { status });
  });
  try {
    const destination = slackDestination({
      url: `http://127.0.0.1:${server.addr.port}/services/T000/B000/XXXX`,
      dashboardUrl: "https://policyd.example/",
      timeoutMs: 5000,
      events: ["cve_alert"],
      minSeverity: "high",
    });
    await destination.deliver(cve(1));
    const [message] = bodies as Array<{ text: string; blocks: Array<Record<string, unknown>> }>;
    ok(message.text.includes("jinja2"));
    deepStrictEqual(message.blocks.map((b) => b.type), ["header", "section", "actions", "context"]);
    const button = (message.blocks[2].elements as Array<{ url: string }>)[0];
    equal(button.url, "https://policyd.example/dashboard/package/jinja2");
    status = 400;
    await rejects(destination.deliver(cve(2)), /answered 400: invalid_payload/);
    status = 200;
    await destination.deliver({
      ...cve(3),
      title: "<!channel> please look at <https://evil|this>",
    });
    const last = bodies.at(-1) as { text: string };
    ok(!last.text.includes("<!channel>") && last.text.includes("&lt;!channel&gt;"));
  } finally {
    await server.shutdown();
  }
});

Deno.test("a destination takes the events it lists at or above its minimum severity", () => {
  const filter = { events: ["cve_alert" as const], minSeverity: "high" as const };
  ok(accepts(filter, cve(1)));
  ok(!accepts(filter, { ...cve(1), severity: "medium" }));
  const request = requestFiledEvent({
    ...leftPadRequest(),
    id: 1,
    created_at: "2026-11-26T06:00:00.000Z",
  });
  ok(!accepts(filter, request));
  ok(accepts({ events: ["request_filed"], minSeverity: "info" }, request));
});
