/**
 * The Slack-compatible incoming webhook destination: a message with a
 * fallback `text` and Block Kit blocks (header, fields, a button linking to
 * the dashboard page of the package). Mattermost and other Slack-compatible
 * receivers read the same body.
 *
 * @module
 */
import { type Destination, postJson } from "./destination.ts";
import { untrustedText } from "../core/untrusted.ts";
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

/**
 * Text from callers (project names, requesters) made inert for Slack's
 * mrkdwn: no `<!channel>` mention, no hidden link, one line.
 *
 * @example
 * ```ts
 * import { slackEscape } from "./slack.ts";
 * slackEscape("<!channel> & co"); // "&lt;!channel&gt; &amp; co"
 * ```
 */
export function slackEscape(text: string): string {
  return untrustedText(text, 500).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(
    />/g,
    "&gt;",
  );
}

/** The message body of one event. */
export function slackMessage(event: AlertEvent, dashboardUrl: string): Record<string, unknown> {
  const link = dashboardLink(event, dashboardUrl);
  const header = `${EMOJI[event.severity] ?? ""} ${untrustedText(event.title, 140)}`.trim();
  return {
    text: `[${event.severity}] ${slackEscape(event.title)} ${link}`,
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
          ...(event.package
            ? [{ type: "mrkdwn", text: `*Package*\n${slackEscape(event.package)}` }]
            : []),
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
