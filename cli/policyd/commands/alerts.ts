/**
 * `policyd alerts test DESTINATION`: sends one sample event to a configured
 * destination (`slack`, `webhook`, `github`; settings from the environment)
 * straight away, without the outbox, and says whether the receiver took it.
 * Exit 0 delivered, 1 refused or not configured, 64 unknown destination.
 *
 * @module
 */
import type { Command } from "commander";
import { optionsOf, tryLoadSettings } from "../../../src/settings.ts";
import { createLogger } from "../../../src/log/logger.ts";
import { createDestinations } from "../../../src/alerts/wiring.ts";
import { sampleEvent } from "../../../src/alerts/events.ts";
import { DESTINATION_NAMES } from "../../../src/alerts/settings.ts";
import { type CommandIO, EXIT_USAGE } from "../io.ts";

/** Sends the sample; returns the exit code. */
export async function alertsTest(destination: string, io: CommandIO): Promise<number> {
  if (!(DESTINATION_NAMES as readonly string[]).includes(destination)) {
    io.stderr(
      `policyd: unknown destination "${destination}" (expected ${DESTINATION_NAMES.join(", ")})\n`,
    );
    return EXIT_USAGE;
  }
  const report = tryLoadSettings(io.env);
  if (!report.ok) {
    for (const issue of report.issues) {
      io.stderr(`policyd: invalid setting ${issue.variable}: ${issue.message}\n`);
    }
    return 1;
  }
  const options = optionsOf(report.settings).alerts;
  const log = createLogger("error", () => {});
  const target = createDestinations(options, {
    token: report.settings.GITHUB_TOKEN ?? null,
    apiUrl: report.settings.GITHUB_API_URL,
  }, log).find((d) => d.name === destination);
  if (!target) {
    io.stderr(`policyd: destination ${destination} is not configured (see docs/alerts.md)\n`);
    return 1;
  }
  const event = sampleEvent(new Date().toISOString(), crypto.randomUUID());
  try {
    await target.deliver(event);
  } catch (error) {
    io.stderr(`policyd: ${destination} refused the test alert: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout(`sent a test alert to ${destination} (delivery ${event.key})\n`);
  return 0;
}

/** Adds `alerts test` to `program`. */
export function registerAlertsCommands(
  program: Command,
  io: CommandIO,
  done: (code: number) => void,
): void {
  program
    .command("alerts")
    .description("alert destinations (ALERTS_* settings)")
    .command("test")
    .description("send a sample alert to a configured destination: slack, webhook or github")
    .argument("<destination>", DESTINATION_NAMES.join(" | "))
    .action(async (destination: string) => done(await alertsTest(destination, io)));
}
