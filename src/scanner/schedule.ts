/**
 * Runs the scanner on `CVE_SCAN_SCHEDULE` with `Deno.cron` (needs
 * `--unstable-cron`). The first pass runs at the first scheduled time, not at
 * start-up; `off` disables the scanner. A pass still running when the next
 * tick comes is not overlapped. With a coordination shared by several
 * instances, each tick is claimed first and only the instance that wins the
 * claim runs the pass (one pass per tick across instances). `stop()`
 * unregisters the cron job through its
 * `AbortSignal` option (which also frees the job's name) and waits for a pass
 * in flight.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import { type Coordination, tickOf } from "../cluster/coordination.ts";

/** The `Deno.cron` overload the scanner uses; injectable for tests. */
export type CronRegistrar = (
  name: string,
  schedule: string,
  options: { signal?: AbortSignal },
  handler: () => Promise<void> | void,
) => Promise<void>;

/** Options of {@link startScanner}. */
export interface ScannerOptions {
  /** A 5-field cron expression (UTC), or `off`. */
  schedule: string;
  /** One scan pass; resolves to the number of alert rows written. */
  runPass: () => Promise<number>;
  log: Logger;
  /** Cron job name, unique per process. Default `policyd-cve-scan`. */
  name?: string;
  /** Default `Deno.cron`. */
  cron?: CronRegistrar;
  /** Claims of ticks across instances; without it every tick runs here. */
  coordination?: Pick<Coordination, "claimScanTick" | "finishScanTick">;
  /** Clock of tick claims. Default the system clock. */
  now?: () => Date;
}

/** What `/health` can show about the scanner. */
export interface ScannerStatus {
  enabled: boolean;
  schedule: string;
  running: boolean;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_rows: number | null;
  last_error: string | null;
}

/** A started scanner. */
export interface ScannerHandle {
  status(): ScannerStatus;
  /** Unregisters the schedule and waits for a pass in flight. */
  stop(): Promise<void>;
}

function denoCron(): CronRegistrar {
  const cron = (Deno as unknown as { cron?: CronRegistrar }).cron;
  if (typeof cron !== "function") {
    throw new Error(
      'Cannot schedule the CVE scanner: Deno.cron needs --unstable-cron (or set CVE_SCAN_SCHEDULE "off")',
    );
  }
  return cron.bind(Deno);
}

/**
 * Starts the scanner. Throws when the schedule is invalid, naming the setting.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * import { runScanPass, type ScanPassDeps } from "./scan_pass.ts";
 * declare const deps: ScanPassDeps;
 * const scanner = startScanner({ schedule: "0 3 * * *", runPass: () => runScanPass(deps), log });
 * // on shutdown:
 * await scanner.stop();
 * ```
 */
export function startScanner(options: ScannerOptions): ScannerHandle {
  const { log } = options;
  const schedule = options.schedule.trim();
  const enabled = schedule.toLowerCase() !== "off";
  const state: ScannerStatus = {
    enabled,
    schedule,
    running: false,
    last_started_at: null,
    last_finished_at: null,
    last_rows: null,
    last_error: null,
  };
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  const controller = new AbortController();

  const claim = async (scheduled: Date): Promise<boolean> => {
    if (!options.coordination) return true;
    try {
      if (await options.coordination.claimScanTick(scheduled)) return true;
      log.info("cve scan tick taken by another instance", { tick: scheduled.toISOString() });
    } catch (error) {
      log.error("cve scan skipped: cannot claim the tick", {
        tick: scheduled.toISOString(),
        detail: error instanceof Error ? error.message : String(error),
      });
    }
    return false;
  };

  const tick = async (): Promise<void> => {
    if (stopped) return;
    if (state.running) {
      log.warn("cve scan skipped: the previous pass is still running");
      return;
    }
    state.running = true;
    const scheduled = tickOf(options.now?.() ?? new Date());
    const pass = (async () => {
      if (!(await claim(scheduled))) return;
      state.last_started_at = new Date().toISOString();
      try {
        state.last_rows = await options.runPass();
        state.last_error = null;
      } catch (error) {
        state.last_error = error instanceof Error ? error.message : String(error);
        log.error("cve scan pass failed", { detail: state.last_error });
      } finally {
        state.last_finished_at = new Date().toISOString();
        await options.coordination?.finishScanTick(scheduled, {
          rows: state.last_error ? null : state.last_rows,
          error: state.last_error,
        }).catch((error) =>
          log.warn("cannot record the cve scan pass", { detail: (error as Error).message })
        );
      }
    })().finally(() => {
      state.running = false;
    });
    inFlight = pass;
    await pass;
  };

  let registration: Promise<void> = Promise.resolve();
  if (enabled) {
    const cron = options.cron ?? denoCron();
    try {
      registration = cron(options.name ?? "policyd-cve-scan", schedule, {
        signal: controller.signal,
      }, tick);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`Invalid setting CVE_SCAN_SCHEDULE: ${message} ("${schedule}")`);
    }
    log.info("cve scanner scheduled", { schedule });
  } else {
    log.info("cve scanner disabled", { schedule });
  }

  return {
    status: () => ({ ...state }),
    async stop() {
      if (stopped) return;
      stopped = true;
      controller.abort();
      await registration.catch(() => {});
      await inFlight;
    },
  };
}
