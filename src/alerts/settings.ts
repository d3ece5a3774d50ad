/**
 * Settings area `alerts` (issue #32): the destinations alerts are delivered
 * to — a Slack-compatible incoming webhook, a generic JSON webhook signed
 * with HMAC-SHA256, GitHub issues in a repository — each with the events it
 * takes and a minimum severity, and the outbox's delivery schedule.
 * Environment variables (`ALERTS_*`), like every other setting: see
 * docs/decisions.md "Alerts".
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import { nonNegativeIntVar, positiveIntVar } from "../config/kinds.ts";
import {
  ALERT_EVENTS,
  ALERT_SEVERITIES,
  type AlertEventKind,
  type AlertSeverity,
} from "./events.ts";

/** The destination names `policyd alerts test` takes. */
export const DESTINATION_NAMES = ["slack", "webhook", "github"] as const;

/** One of {@link DESTINATION_NAMES}. */
export type DestinationName = typeof DESTINATION_NAMES[number];

/** What one destination takes. */
export interface DestinationFilter {
  events: AlertEventKind[];
  minSeverity: AlertSeverity;
}

/** Typed options of the alerts. */
export interface AlertsOptions {
  slack: (DestinationFilter & { url: string }) | null;
  webhook: (DestinationFilter & { url: string; secret: string }) | null;
  /** `owner/name` of the repository issues are opened in. */
  github: (DestinationFilter & { repo: string }) | null;
  /** Base URL of the dashboard links in messages. */
  dashboardUrl: string;
  /** Tries of one delivery before it is dead-lettered. */
  maxAttempts: number;
  /** Back-off after the first failure; doubles per failure up to an hour. */
  retryBaseMs: number;
  /** How often the outbox is polled for due deliveries. */
  pollMs: number;
  /** Time limit of one delivery call. */
  timeoutMs: number;
  /** How long an upstream fails before `upstream_down` (0: at the first failure). */
  upstreamDownAfterSeconds: number;
}

const eventsVar = z
  .string()
  .transform((v) => v.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))
  .refine(
    (list) => list.every((e) => e === "all" || (ALERT_EVENTS as readonly string[]).includes(e)),
    {
      message: `expected a comma-separated list of ${ALERT_EVENTS.join(", ")} (or all)`,
    },
  )
  .transform((list) =>
    list.includes("all") || list.length === 0 ? [...ALERT_EVENTS] : list as AlertEventKind[]
  )
  .default([...ALERT_EVENTS]);

const severityVar = z.enum(ALERT_SEVERITIES).default("info");

/** The `alerts` area. */
export const alertsArea = defineArea({
  name: "alerts",
  variables: {
    ALERTS_SLACK_WEBHOOK_URL: z.url().optional(),
    ALERTS_SLACK_EVENTS: eventsVar,
    ALERTS_SLACK_MIN_SEVERITY: severityVar,
    ALERTS_WEBHOOK_URL: z.url().optional(),
    ALERTS_WEBHOOK_SECRET: z.string().min(16).optional(),
    ALERTS_WEBHOOK_EVENTS: eventsVar,
    ALERTS_WEBHOOK_MIN_SEVERITY: severityVar,
    ALERTS_GITHUB_REPO: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, {
      message: "expected owner/name",
    }).optional(),
    ALERTS_GITHUB_EVENTS: eventsVar,
    ALERTS_GITHUB_MIN_SEVERITY: severityVar,
    ALERTS_DASHBOARD_URL: z.url().default("http://127.0.0.1:8765"),
    ALERTS_MAX_ATTEMPTS: positiveIntVar.max(100).default(8),
    ALERTS_RETRY_BASE_MS: positiveIntVar.default(2000),
    ALERTS_POLL_MS: positiveIntVar.default(2000),
    ALERTS_TIMEOUT_MS: positiveIntVar.default(10_000),
    ALERTS_UPSTREAM_DOWN_AFTER_S: nonNegativeIntVar.default(300),
  },
  options: (v, report): AlertsOptions => {
    if (v.ALERTS_WEBHOOK_URL && !v.ALERTS_WEBHOOK_SECRET) {
      report(
        "ALERTS_WEBHOOK_SECRET",
        "required when ALERTS_WEBHOOK_URL is set (deliveries are signed with it)",
      );
    }
    return {
      slack: v.ALERTS_SLACK_WEBHOOK_URL
        ? {
          url: v.ALERTS_SLACK_WEBHOOK_URL,
          events: v.ALERTS_SLACK_EVENTS,
          minSeverity: v.ALERTS_SLACK_MIN_SEVERITY,
        }
        : null,
      webhook: v.ALERTS_WEBHOOK_URL && v.ALERTS_WEBHOOK_SECRET
        ? {
          url: v.ALERTS_WEBHOOK_URL,
          secret: v.ALERTS_WEBHOOK_SECRET,
          events: v.ALERTS_WEBHOOK_EVENTS,
          minSeverity: v.ALERTS_WEBHOOK_MIN_SEVERITY,
        }
        : null,
      github: v.ALERTS_GITHUB_REPO
        ? {
          repo: v.ALERTS_GITHUB_REPO,
          events: v.ALERTS_GITHUB_EVENTS,
          minSeverity: v.ALERTS_GITHUB_MIN_SEVERITY,
        }
        : null,
      dashboardUrl: v.ALERTS_DASHBOARD_URL,
      maxAttempts: v.ALERTS_MAX_ATTEMPTS,
      retryBaseMs: v.ALERTS_RETRY_BASE_MS,
      pollMs: v.ALERTS_POLL_MS,
      timeoutMs: v.ALERTS_TIMEOUT_MS,
      upstreamDownAfterSeconds: v.ALERTS_UPSTREAM_DOWN_AFTER_S,
    };
  },
});
