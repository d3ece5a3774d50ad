/**
 * The alert events (issue #32): their kinds, severities, payloads and
 * idempotency keys. Pure: every builder takes what it describes and returns
 * the event a destination receives; nothing here touches the store or the
 * network.
 *
 * @module
 */

import { ALERT_EVENTS, ALERT_SEVERITIES } from "../api/enums.ts";
import type { ApprovalRequest } from "../store/types.ts";

export { ALERT_EVENTS, ALERT_SEVERITIES };

/** One of {@link ALERT_EVENTS}. */
export type AlertEventKind = typeof ALERT_EVENTS[number];

/** One of {@link ALERT_SEVERITIES}. */
export type AlertSeverity = typeof ALERT_SEVERITIES[number];

/** Whether `severity` reaches `minimum`. */
export function atLeast(severity: AlertSeverity, minimum: AlertSeverity): boolean {
  return ALERT_SEVERITIES.indexOf(severity) >= ALERT_SEVERITIES.indexOf(minimum);
}

/**
 * The severity of a CVSS score by the bands of the security report: critical
 * ≥ 9.0, high ≥ 7.0, medium ≥ 4.0, else low.
 *
 * @example
 * ```ts
 * import { cvssSeverity } from "./events.ts";
 * cvssSeverity(9.8); // "critical"
 * ```
 */
export function cvssSeverity(score: number | null): AlertSeverity {
  if (score === null) return "medium";
  if (score >= 9) return "critical";
  if (score >= 7) return "high";
  if (score >= 4) return "medium";
  return "low";
}

/** An event before it is written to the outbox. */
export interface AlertEvent {
  /** Unique per event: receivers drop repeats of a key they have seen. */
  key: string;
  kind: AlertEventKind;
  severity: AlertSeverity;
  /** The package the event is about; null for upstream events. */
  package: string | null;
  /** One line for humans (Slack text, issue comment headline). */
  title: string;
  /** The `data` member of the JSON payload (see docs/alerts.md). */
  data: Record<string, unknown>;
  /** ISO-8601 time the event happened. */
  occurred_at: string;
}

/** The JSON body the generic webhook receives. */
export interface AlertPayload {
  id: string;
  event: AlertEventKind;
  severity: AlertSeverity;
  package: string | null;
  title: string;
  occurred_at: string;
  /** Link to the dashboard page of the package (or of the alerts). */
  url: string;
  data: Record<string, unknown>;
}

/** The dashboard link of an event: the package page, else the alerts page. */
export function dashboardLink(event: Pick<AlertEvent, "package">, dashboardUrl: string): string {
  const base = dashboardUrl.replace(/\/+$/, "");
  return event.package === null
    ? `${base}/dashboard/alerts`
    : `${base}/dashboard/package/${encodeURIComponent(event.package)}`;
}

/** The payload of an event as every destination renders it. */
export function payloadOf(event: AlertEvent, dashboardUrl: string): AlertPayload {
  return {
    id: event.key,
    event: event.kind,
    severity: event.severity,
    package: event.package,
    title: event.title,
    occurred_at: event.occurred_at,
    url: dashboardLink(event, dashboardUrl),
    data: event.data,
  };
}

/** What a `cve_alert` says: the scanner's audit row. */
export interface CveAlertCause {
  audit_id: number;
  package: string;
  version: string | null;
  cve_ids: string[];
  max_cvss: number | null;
  registry_status: string | null;
  reason: string;
  ts: string;
}

/**
 * A `cve_alert`: one per scanner alert row (the row's id is the key).
 *
 * @example
 * ```ts
 * import { cveAlertEvent } from "./events.ts";
 * const e = cveAlertEvent({ audit_id: 7, package: "jinja2", version: null, cve_ids: ["CVE-2024-22195"],
 *   max_cvss: 9.1, registry_status: "approved", reason: "CVE scan: …", ts: "2026-11-26T06:00:00.000Z" });
 * e.key; // "cve_alert:audit:7"
 * ```
 */
export function cveAlertEvent(row: CveAlertCause): AlertEvent {
  return {
    key: `cve_alert:audit:${row.audit_id}`,
    kind: "cve_alert",
    severity: cvssSeverity(row.max_cvss),
    package: row.package,
    title: `${row.package}: ${row.cve_ids.length} ${
      row.cve_ids.length === 1 ? "vulnerability" : "vulnerabilities"
    } at or above the CVE threshold (highest CVSS ${row.max_cvss ?? "unknown"})`,
    data: {
      audit_id: row.audit_id,
      version: row.version,
      cve_ids: row.cve_ids,
      max_cvss: row.max_cvss,
      registry_status: row.registry_status,
      reason: row.reason,
    },
    occurred_at: row.ts,
  };
}

/** One project that evaluated or downloaded a package, and the versions it asked for. */
export interface ProjectUse {
  project: string;
  versions: string[];
  last_seen: string;
}

/**
 * A `malicious_seen`: malicious advisories for a package the audit log saw
 * in the last 30 days. The key is the package and its sorted advisory ids,
 * so a set of advisories alerts once whoever notices it first.
 */
export function maliciousSeenEvent(input: {
  package: string;
  advisories: Array<{ id: string; summary: string | null }>;
  projects: ProjectUse[];
  occurred_at: string;
}): AlertEvent {
  const ids = input.advisories.map((a) => a.id).sort();
  const names = input.projects.map((p) => p.project);
  return {
    key: `malicious_seen:${input.package}:${ids.join(",")}`,
    kind: "malicious_seen",
    severity: "critical",
    package: input.package,
    title: `${input.package} is malicious (${ids.join(", ")}); used in the last 30 days by ${
      names.length ? names.join(", ") : "no project"
    }`,
    data: {
      advisories: [...input.advisories].sort((a, b) => a.id.localeCompare(b.id)),
      projects: input.projects,
    },
    occurred_at: input.occurred_at,
  };
}

/** A `request_filed`: the first open approval request of a package (later ones collapse). */
export function requestFiledEvent(
  request: Omit<
    ApprovalRequest,
    | "status"
    | "decided_at"
    | "proposal_status"
    | "proposal_detail"
    | "decided_by"
    | "decision_reason"
    | "source"
  >,
): AlertEvent {
  return {
    key: `request_filed:${request.package}:${request.id}`,
    kind: "request_filed",
    severity: "info",
    package: request.package,
    title: `${request.requester} (${request.project}) asks to approve ${request.package}${
      request.version ? ` ${request.version}` : ""
    }`,
    data: {
      request_id: request.id,
      version: request.version,
      project: request.project,
      requester: request.requester,
      agent_model: request.agent_model,
      rationale: request.rationale,
    },
    occurred_at: request.created_at,
  };
}

/** A package rule as compared by {@link ruleChangedEvents} (any JSON value). */
export type RuleValue = Record<string, unknown>;

/**
 * `rule_changed` events of one registry change: one per package whose rule
 * was added, removed or changed, with the rule before and after (null when
 * absent). The key names both registry content hashes, so every instance
 * that applies the same change writes the same keys.
 */
export function ruleChangedEvents(change: {
  before: Map<string, RuleValue>;
  after: Map<string, RuleValue>;
  previous_version: string;
  new_version: string;
  previous_hash: string;
  new_hash: string;
  occurred_at: string;
}): AlertEvent[] {
  const names = new Set([...change.before.keys(), ...change.after.keys()]);
  const events: AlertEvent[] = [];
  for (const name of [...names].sort()) {
    const before = change.before.get(name) ?? null;
    const after = change.after.get(name) ?? null;
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    const what = before === null
      ? `added as ${after!.status}`
      : after === null
      ? "removed"
      : before.status === after.status
      ? `changed (${after.status})`
      : `${before.status} → ${after.status}`;
    events.push({
      key: `rule_changed:${change.previous_hash}:${change.new_hash}:${name}`,
      kind: "rule_changed",
      severity: "info",
      package: name,
      title: `registry ${change.new_version}: ${name} ${what}`,
      data: {
        previous_version: change.previous_version,
        new_version: change.new_version,
        before,
        after,
      },
      occurred_at: change.occurred_at,
    });
  }
  return events;
}

/** An `upstream_down` or `upstream_up` of one instance. */
export function upstreamEvent(input: {
  kind: "upstream_down" | "upstream_up";
  upstream: string;
  instance: string;
  /** When this instance first saw it failing. */
  failing_since: string;
  last_error: string | null;
  occurred_at: string;
}): AlertEvent {
  const down = input.kind === "upstream_down";
  return {
    key: `${input.kind}:${input.upstream}:${input.instance}:${input.failing_since}`,
    kind: input.kind,
    severity: down ? "high" : "info",
    package: null,
    title: down
      ? `${input.upstream} has been failing since ${input.failing_since} (${input.instance})`
      : `${input.upstream} answers again (${input.instance})`,
    data: {
      upstream: input.upstream,
      instance: input.instance,
      failing_since: input.failing_since,
      last_error: input.last_error,
    },
    occurred_at: input.occurred_at,
  };
}

/** A sample event of a kind, for `policyd alerts test`. */
export function sampleEvent(occurred_at: string, nonce: string): AlertEvent {
  return {
    key: `test:${nonce}`,
    kind: "cve_alert",
    severity: "critical",
    package: "policyd-test",
    title: "policyd test alert: if you can read this, the destination works",
    data: { test: true },
    occurred_at,
  };
}
