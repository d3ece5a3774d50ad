/**
 * What every alert destination is: a name, the events it takes, and a
 * `deliver` that resolves when the receiver accepted the event and throws a
 * {@link DeliveryError} when it did not (the outbox then retries).
 *
 * @module
 */
import { type AlertEvent, atLeast } from "./events.ts";
import type { DestinationFilter, DestinationName } from "./settings.ts";

/** A receiver's refusal or a transport failure; the message is kept on the outbox row. */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** One configured destination. */
export interface Destination {
  name: DestinationName;
  filter: DestinationFilter;
  /** Sends one event; throws {@link DeliveryError} unless the receiver accepted it. */
  deliver(event: AlertEvent): Promise<void>;
}

/** Whether a destination takes an event (its kind is listed, its severity reaches the minimum). */
export function accepts(filter: DestinationFilter, event: Pick<AlertEvent, "kind" | "severity">) {
  return filter.events.includes(event.kind) && atLeast(event.severity, filter.minSeverity);
}

/**
 * POSTs a JSON body and throws a {@link DeliveryError} unless the answer is
 * 2xx (the body of a refusal is quoted, shortened). Messages never name the
 * URL: a Slack webhook URL is a credential.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "policyd-alerts", ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const detail = (error as Error).name === "TimeoutError"
      ? `no answer within ${timeoutMs} ms`
      : (error as Error).message.replaceAll(url, "<destination>");
    throw new DeliveryError(`delivery failed: ${detail}`);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    throw new DeliveryError(
      `the receiver answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`,
    );
  }
}
