/**
 * The shapes of the composition root (`server.ts`): what building the server
 * takes and what it returns.
 *
 * @module
 */
import type { Hono } from "hono";
import type { WiredAlerts } from "./alerts/wiring.ts";
import type { AppDeps, AppEnv } from "./http/deps.ts";
import type { Logger } from "./log/logger.ts";
import type { LicenseSource, VulnerabilitySource } from "./lookups/types.ts";
import type { LiveRegistry } from "./registry/live.ts";
import type { Store } from "./store/types.ts";

/** Options of `buildServer`; overrides exist for tests and the workflow docs. */
export interface BuildOptions {
  log: Logger;
  now?: () => Date;
  requestIds?: () => string;
  accessLog?: boolean;
  /** Replace the upstream lookups (tests use the fake upstream through settings instead). */
  lookups?: { vulnerabilities: VulnerabilitySource; licenses: LicenseSource };
  /** Skip background tasks (poller, scanner). */
  background?: boolean;
}

/** A wired application and the parts that need closing. */
export interface BuiltServer {
  app: Hono<AppEnv>;
  deps: AppDeps;
  registry: LiveRegistry;
  store: Store;
  /** The alerts: destinations, the delivery loop (`flush()` delivers what is due now). */
  alerts: WiredAlerts;
  /** Stops background tasks and closes the store, cache and proposer. */
  close(): Promise<void>;
}
