/**
 * Composition of the scheduled CVE scan: OSV's batch source, the popular-names
 * refresh and the scan pass, on the scanner area's schedule. Part of the
 * composition root (`server.ts`).
 *
 * @module
 */
import type { Coordination } from "./cluster/coordination.ts";
import type { LiveRegistry } from "./registry/live.ts";
import type { Logger } from "./log/logger.ts";
import type { Cache } from "./cache/types.ts";
import type { LookupOptions } from "./lookups/settings.ts";
import type { PopularNames } from "./lookups/popular.ts";
import type { LicenseSource } from "./lookups/types.ts";
import { createOsvScanSource } from "./lookups/osv_scan.ts";
import { runScanPass, type ScanPassDeps } from "./scanner/scan_pass.ts";
import { type ScannerHandle, startScanner } from "./scanner/schedule.ts";
import type { ScannerOptions } from "./scanner/settings.ts";
import { StartupError } from "./startup.ts";

/** The wired parts a scan pass uses. */
export interface ScannerParts {
  lookups: LookupOptions;
  scanner: ScannerOptions;
  caching: { store: Cache; ttlSeconds: number };
  coordination: Coordination;
  popular: PopularNames;
  registry: LiveRegistry;
  licenses: LicenseSource;
  audit: ScanPassDeps["audit"];
  log: Logger;
}

/** Starts the scheduled scan; a bad schedule fails the start-up. */
export function wireScanner(parts: ScannerParts): ScannerHandle {
  const log = parts.log.child({ component: "scanner" });
  const osvScan = createOsvScanSource({ lookups: parts.lookups, cache: parts.caching, log });
  try {
    return startScanner({
      schedule: parts.scanner.schedule,
      log,
      coordination: parts.coordination,
      runPass: async () => {
        await parts.popular.refresh();
        return await runScanPass({
          vulnerabilities: osvScan,
          scanner: parts.scanner,
          registry: parts.registry.current().registry,
          licenses: parts.licenses,
          audit: parts.audit,
          log,
        });
      },
    });
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
}
