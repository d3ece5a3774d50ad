/**
 * The Slack-compatible incoming webhook destination: a message with a
 * fallback `text` and Block Kit blocks (header, fields, a button linking to
 * the dashboard page of the package). Mattermost and other Slack-compatible
 * receivers read the same body.
 *
 * @module
 */
import { type Destination, postJson } from "./destination.ts";
import { type AlertEvent, dashboardLink } from "./events.ts";
import type { DestinationFilter } from "./settings.ts";

/** Options of {@link slackDestination}. */
export interface SlackDestinationOptions extends DestinationFilter {
  url: string;
  dashboardUrl: string;
  timeoutMs: number;
}

const EMOJI: Record<string, string> = {
  critical: ":rotating_light:",
  high: ":warning:",
  medium: ":large_orange_diamond:",
  low: ":small_blue_diamond:",
  info: ":information_source:",
};

/** The message body of one event. */
export function slackMessage(event: AlertEvent, dashboardUrl: string): Record<string, unknown> {
  const link = dashboardLink(event, dashboardUrl);
  const header = `${EMOJI[event.severity] ?? ""} ${event.title}`.trim();
  return {
    text: `[${event.severity}] ${event.title} ${link}`,
    blocks: [
      {
        type: "header",
        text: { type: "plain_text", text: header.slice(0, 150), emoji: true },
      },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*Event*\n\`${event.kind}\`` },
          { type: "mrkdwn", text: `*Severity*\n${event.severity}` },
          ...(event.package ? [{ type: "mrkdwn", text: `*Package*\n${event.package}` }] : []),
          { type: "mrkdwn", text: `*When*\n${event.occurred_at}` },
        ],
      },
      {
        type: "actions",
        elements: [{
          type: "button",
          text: { type: "plain_text", text: "Open in policyd" },
          url: link,
        }],
      },
      { type: "context", elements: [{ type: "mrkdwn", text: `delivery \`${event.key}\`` }] },
    ],
  };
}

/** Creates the destination. */
export function slackDestination(options: SlackDestinationOptions): Destination {
  return {
    name: "slack",
    filter: { events: options.events, minSeverity: options.minSeverity },
    async deliver(event) {
      const body = JSON.stringify(slackMessage(event, options.dashboardUrl));
      await postJson(options.url, body, {}, options.timeoutMs);
    },
  };
}
