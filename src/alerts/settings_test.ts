/** The `alerts` settings area: destinations, events lists, the secret rule. */
import { deepStrictEqual, equal } from "node:assert/strict";
import { tryOptionsFromEnv } from "../config/area.ts";
import { alertsArea } from "./settings.ts";

const tryLoad = (env: Record<string, string>) => {
  const { options, issues } = tryOptionsFromEnv(alertsArea, env);
  return { ok: issues.length === 0, issues, options: { alerts: options } };
};

Deno.test("no ALERTS_* variable: no destination, the documented defaults", () => {
  const report = tryLoad({});
  equal(report.ok, true);
  const alerts = report.options.alerts;
  deepStrictEqual([alerts.slack, alerts.webhook, alerts.github], [null, null, null]);
  deepStrictEqual(
    [alerts.maxAttempts, alerts.retryBaseMs, alerts.pollMs, alerts.upstreamDownAfterSeconds],
    [8, 2000, 2000, 300],
  );
});

/** A valid configuration of all three destinations; the faults below are made from it. */
const DESTINATIONS = {
  ALERTS_SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/X",
  ALERTS_SLACK_EVENTS: "cve_alert, malicious_seen",
  ALERTS_SLACK_MIN_SEVERITY: "high",
  ALERTS_WEBHOOK_URL: "https://hooks.example/policyd",
  ALERTS_WEBHOOK_SECRET: "0123456789abcdef",
  ALERTS_GITHUB_REPO: "acme/registry",
  ALERTS_GITHUB_EVENTS: "all",
};

Deno.test("destinations with their events and minimum severity", () => {
  const report = tryLoad(DESTINATIONS);
  equal(report.ok, true, JSON.stringify(report.issues));
  const { slack, webhook, github } = report.options.alerts;
  deepStrictEqual(slack?.events, ["cve_alert", "malicious_seen"]);
  equal(slack?.minSeverity, "high");
  equal(webhook?.secret, "0123456789abcdef");
  equal(github?.repo, "acme/registry");
  equal(github?.events.length, 6);
});

Deno.test("a webhook without its secret, an unknown event and a bad repository are named", () => {
  // The valid destinations with four faults: each issue names its own variable.
  const { ALERTS_WEBHOOK_SECRET: _secret, ...unsigned } = DESTINATIONS;
  const report = tryLoad({
    ...unsigned,
    ALERTS_SLACK_EVENTS: "cve_alert,new_moon",
    ALERTS_GITHUB_REPO: "not a repo",
    ALERTS_WEBHOOK_MIN_SEVERITY: "urgent",
  });
  deepStrictEqual(report.issues.map((i) => i.variable).sort(), [
    "ALERTS_GITHUB_REPO",
    "ALERTS_SLACK_EVENTS",
    "ALERTS_WEBHOOK_MIN_SEVERITY",
    "ALERTS_WEBHOOK_SECRET",
  ]);
  equal(report.options.alerts.webhook, null, "never unsigned");
});
