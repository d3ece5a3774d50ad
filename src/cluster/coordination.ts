/**
 * What instances coordinate: registry reloads (one instance reloads, the
 * others follow) and scan passes (one pass per scheduled tick). A single
 * instance uses {@link localCoordination}; instances sharing a PostgreSQL
 * database use `postgres_coordination.ts`.
 *
 * @module
 */

/** A reload another instance announced. */
export interface ReloadAnnouncement {
  /** The announcing instance. */
  instance: string;
  /** The registry version it loaded. */
  version: string;
}

/** The record of one scan pass, as `/health` shows it. */
export interface ScanPassRecord {
  /** The scheduled minute the pass belongs to (ISO-8601). */
  tick: string;
  /** The instance that ran it. */
  instance: string;
  started_at: string;
  finished_at: string | null;
  rows: number | null;
  error: string | null;
}

/** Coordination between the instances of one deployment. */
export interface Coordination {
  /** This instance's id. */
  readonly instance: string;
  /** Whether other instances can exist (`/health` shows the cluster fields only then). */
  readonly clustered: boolean;
  /** Tells the other instances that this one reloaded the registry. */
  announceReload(version: string): Promise<void>;
  /** Calls `handler` for every reload another instance announces. */
  onReload(handler: (announcement: ReloadAnnouncement) => void): Promise<void>;
  /** Claims a scheduled tick for this instance; false when another instance already has it. */
  claimScanTick(tick: Date): Promise<boolean>;
  /** Records the outcome of a claimed pass. */
  finishScanTick(tick: Date, outcome: { rows: number | null; error: string | null }): Promise<void>;
  /** The most recent pass of any instance. */
  lastScanPass(): Promise<ScanPassRecord | null>;
  close(): Promise<void>;
}

/** The scheduled minute a cron tick fired for (ticks are minute-aligned). */
export function tickOf(firedAt: Date): Date {
  return new Date(Math.floor(firedAt.getTime() / 60_000) * 60_000);
}

/**
 * Coordination of a single instance: nothing to announce, every tick is
 * this instance's own.
 *
 * @example
 * ```ts
 * import { localCoordination } from "./coordination.ts";
 * const local = localCoordination("host:1");
 * await local.claimScanTick(new Date()); // true
 * ```
 */
export function localCoordination(instance: string): Coordination {
  let last: ScanPassRecord | null = null;
  return {
    instance,
    clustered: false,
    announceReload: () => Promise.resolve(),
    onReload: () => Promise.resolve(),
    claimScanTick(tick) {
      if (last?.tick === tick.toISOString()) return Promise.resolve(false);
      last = {
        tick: tick.toISOString(),
        instance,
        started_at: new Date().toISOString(),
        finished_at: null,
        rows: null,
        error: null,
      };
      return Promise.resolve(true);
    },
    finishScanTick(tick, outcome) {
      if (last?.tick === tick.toISOString()) {
        last = { ...last, ...outcome, finished_at: new Date().toISOString() };
      }
      return Promise.resolve();
    },
    lastScanPass: () => Promise.resolve(last),
    close: () => Promise.resolve(),
  };
}
