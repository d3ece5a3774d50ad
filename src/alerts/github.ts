/**
 * The GitHub issue destination (Octokit): one open issue per package and
 * event kind in the registry repository, labelled `policyd-alert`; a later
 * event of the same package and kind is a comment on that issue instead of a
 * second issue. Upstream events are keyed by the upstream's name.
 *
 * @module
 */
import type { Octokit } from "@octokit/rest";
import { DeliveryError, type Destination } from "./destination.ts";
import { untrustedText } from "../core/untrusted.ts";
import { type AlertEvent, dashboardLink } from "./events.ts";
import type { DestinationFilter } from "./settings.ts";

/** The label every alert issue carries (how open alert issues are found). */
export const ALERT_LABEL = "policyd-alert";

/** Options of {@link githubDestination}. */
export interface GithubDestinationOptions extends DestinationFilter {
  /** `owner/name`. */
  repo: string;
  dashboardUrl: string;
  octokit: Octokit;
  /** Time limit of each API call. */
  timeoutMs: number;
}

/** The title of the one open issue of an event's package (or upstream) and kind. */
export function issueTitle(event: AlertEvent): string {
  const subject = event.package ?? String(event.data.upstream ?? "policyd");
  return `[policyd] ${event.kind}: ${subject}`;
}

/** Caller-supplied text as inline code: no @-mention, issue reference or markup takes effect. */
function inlineCode(text: string): string {
  return "`` " + untrustedText(text, 500).replace(/`/g, "'") + " ``";
}

function issueBody(event: AlertEvent, dashboardUrl: string): string {
  return [
    inlineCode(event.title),
    "",
    `- event: \`${event.kind}\`, severity: ${event.severity}, at ${event.occurred_at}`,
    `- dashboard: ${dashboardLink(event, dashboardUrl)}`,
    "",
    "```json",
    JSON.stringify(event.data, null, 2),
    "```",
    "",
    `<sub>policyd delivery \`${event.key}\`</sub>`,
  ].join("\n");
}

/** Creates the destination. */
export function githubDestination(options: GithubDestinationOptions): Destination {
  const [owner, repo] = options.repo.split("/");
  const { octokit } = options;
  const failure = (what: string, error: unknown) => {
    const status = (error as { status?: number }).status;
    return new DeliveryError(
      `GitHub ${what} failed${status ? ` (${status})` : ""}: ${(error as Error).message}`,
    );
  };
  return {
    name: "github",
    filter: { events: options.events, minSeverity: options.minSeverity },
    async deliver(event) {
      const title = issueTitle(event);
      const body = issueBody(event, options.dashboardUrl);
      let open: Array<{ number: number; title: string }>;
      try {
        open = await octokit.paginate(octokit.rest.issues.listForRepo, {
          owner,
          repo,
          state: "open",
          labels: ALERT_LABEL,
          per_page: 100,
          request: { signal: AbortSignal.timeout(options.timeoutMs) },
        });
      } catch (error) {
        throw failure("issues.listForRepo", error);
      }
      const existing = open.find((issue) => issue.title === title);
      try {
        if (existing) {
          await octokit.rest.issues.createComment({
            owner,
            repo,
            issue_number: existing.number,
            body,
            request: { signal: AbortSignal.timeout(options.timeoutMs) },
          });
        } else {
          await octokit.rest.issues.create({
            owner,
            repo,
            title,
            body,
            labels: [ALERT_LABEL],
            request: { signal: AbortSignal.timeout(options.timeoutMs) },
          });
        }
      } catch (error) {
        throw failure(existing ? "issues.createComment" : "issues.create", error);
      }
    },
  };
}
