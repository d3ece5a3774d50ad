/**
 * The generic JSON webhook destination: the event's payload
 * (docs/alerts.md) as the body, signed with HMAC-SHA256 over the raw body in
 * `X-Policyd-Signature-256: sha256=<hex>`, the idempotency key in
 * `X-Policyd-Delivery` and the kind in `X-Policyd-Event`.
 *
 * @module
 */
import { signBody } from "../approvals/webhook.ts";
import { type Destination, postJson } from "./destination.ts";
import { type AlertEvent, payloadOf } from "./events.ts";
import type { DestinationFilter } from "./settings.ts";

/** The signature header. */
export const SIGNATURE_HEADER = "X-Policyd-Signature-256";
/** The idempotency key header. */
export const DELIVERY_HEADER = "X-Policyd-Delivery";
/** The event kind header. */
export const EVENT_HEADER = "X-Policyd-Event";

/** Options of {@link webhookDestination}. */
export interface WebhookDestinationOptions extends DestinationFilter {
  url: string;
  secret: string;
  dashboardUrl: string;
  timeoutMs: number;
}

/** The headers and raw body of one delivery (what a receiver verifies). */
export async function signedDelivery(
  event: AlertEvent,
  secret: string,
  dashboardUrl: string,
): Promise<{ body: string; headers: Record<string, string> }> {
  const body = JSON.stringify(payloadOf(event, dashboardUrl));
  return {
    body,
    headers: {
      [SIGNATURE_HEADER]: await signBody(secret, new TextEncoder().encode(body)),
      [DELIVERY_HEADER]: event.key,
      [EVENT_HEADER]: event.kind,
    },
  };
}

/**
 * Creates the destination.
 *
 * @example
 * ```ts
 * import { webhookDestination } from "./webhook.ts";
 * const hook = webhookDestination({ url: "https://hooks.example/policyd", secret: "0123456789abcdef",
 *   dashboardUrl: "https://policyd.example", timeoutMs: 10_000, events: ["cve_alert"], minSeverity: "high" });
 * hook.name; // "webhook"
 * ```
 */
export function webhookDestination(options: WebhookDestinationOptions): Destination {
  return {
    name: "webhook",
    filter: { events: options.events, minSeverity: options.minSeverity },
    async deliver(event) {
      const { body, headers } = await signedDelivery(event, options.secret, options.dashboardUrl);
      await postJson(options.url, body, headers, options.timeoutMs);
    },
  };
}
