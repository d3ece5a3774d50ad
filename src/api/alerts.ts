/**
 * Contracts of the alerts routes (issue #32): `GET /alerts` lists recent
 * alert deliveries (one row per event and destination) with their state;
 * `POST /alerts/:id/retry` and `POST /alerts/:id/mute` are the dashboard's
 * actions. Operator only.
 *
 * @module
 */
import { z } from "zod";
import { defineRoute } from "./contract.ts";
import { ALERT_DELIVERY_STATES, ALERT_EVENTS, ALERT_SEVERITIES } from "./enums.ts";

/** Largest page of `GET /alerts`. */
export const MAX_ALERTS_PAGE = 500;

/** The query of `GET /alerts`. */
export const AlertsQuerySchema = z.object({
  state: z.enum(ALERT_DELIVERY_STATES).optional().describe("only deliveries in this state"),
  event: z.enum(ALERT_EVENTS).optional().describe("only events of this kind"),
  destination: z.enum(["slack", "webhook", "github"]).optional().describe(
    "only deliveries to this destination",
  ),
  limit: z.coerce.number().int().min(1).max(MAX_ALERTS_PAGE).default(100).describe(
    "rows, newest first",
  ),
});

/** One event's delivery to one destination. */
export const AlertDeliverySchema = z.object({
  id: z.number().int().describe("the outbox row (retry and mute take it)"),
  key: z.string().describe("the event's idempotency key (X-Policyd-Delivery)"),
  event: z.enum(ALERT_EVENTS),
  severity: z.enum(ALERT_SEVERITIES),
  package: z.string().nullable(),
  title: z.string(),
  destination: z.string(),
  state: z.enum(ALERT_DELIVERY_STATES),
  attempts: z.number().int(),
  next_attempt_at: z.string().describe("when a pending delivery is tried next"),
  last_error: z.string().nullable(),
  occurred_at: z.string(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).describe("the event's payload data (docs/alerts.md)"),
});

/** The answer of `GET /alerts`. */
export const AlertsPageSchema = z.object({
  items: z.array(AlertDeliverySchema),
  backlog: z.object({
    pending: z.number().int(),
    dead: z.number().int(),
    oldest_pending_at: z.string().nullable(),
  }),
  destinations: z.array(z.string()).describe("the configured destinations"),
});

/** Path parameters of the actions. */
export const AlertIdParamsSchema = z.object({
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe("outbox row id"),
});

/** The answer of an action. */
export const AlertActionSchema = z.object({
  id: z.number().int(),
  state: z.enum(ALERT_DELIVERY_STATES),
});

/** `GET /alerts`. */
export const alertsListRoute = defineRoute("get", "/alerts", {
  summary: "Recent alert events and their delivery state per destination, newest first.",
  operator: true,
  query: AlertsQuerySchema,
  responses: {
    200: { description: "deliveries and the outbox backlog", schema: AlertsPageSchema },
  },
  errors: { 400: "invalid filter or limit", 403: "not an operator" },
});

/** The error cases of both actions. */
const ACTION_ERRORS = {
  400: "invalid id",
  403: "not an operator",
  404: "no such delivery",
  409: "already delivered",
};

/** An operator action on one delivery: same parameters, answer and errors. */
const alertAction = (path: string, summary: string, answered: string) =>
  defineRoute("post", path, {
    summary,
    operator: true,
    params: AlertIdParamsSchema,
    responses: { 200: { description: answered, schema: AlertActionSchema } },
    errors: ACTION_ERRORS,
  });

/** `POST /alerts/:id/retry`. */
export const alertRetryRoute = alertAction(
  "/alerts/:id/retry",
  "Deliver a dead, muted or waiting alert again now, with a fresh count of tries.",
  "the delivery is pending",
);

/** `POST /alerts/:id/mute`. */
export const alertMuteRoute = alertAction(
  "/alerts/:id/mute",
  "Stop delivering an alert that is not delivered yet.",
  "the delivery is muted",
);
