/**
 * Runs one check per failure mode of a fake upstream service (HTTP 500,
 * a hang, malformed JSON), each as a test step with a logger whose lines
 * the check can inspect.
 *
 * @module
 */
import { createLogger, type Logger } from "../../src/log/logger.ts";
import { type FaultMode, startFakeUpstream } from "./fake_upstream.ts";

/** The failure modes every lookup must turn into `unavailable`. */
export const FAULT_MODES: readonly FaultMode[] = ["error500", "hang", "malformed"];

/** What a fault check gets: the upstream's base URL and an info logger with its lines. */
export interface FaultCheckContext {
  url: string;
  log: Logger;
  /** The JSON log lines written so far in this step. */
  lines: string[];
}

/** Starts a fake upstream and runs `check` as one step per failure mode of `service`. */
export async function forEachUpstreamFault(
  t: Deno.TestContext,
  service: "osv" | "pypi",
  check: (context: FaultCheckContext) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  try {
    for (const mode of FAULT_MODES) {
      await t.step(mode, async () => {
        const lines: string[] = [];
        upstream[service].mode = mode;
        await check({ url: upstream.url, log: createLogger("info", (l) => lines.push(l)), lines });
      });
    }
  } finally {
    upstream[service].mode = "ok";
    await upstream.close();
  }
}
