/**
 * The outbox delivery loop: every `pollMs` (and at once when nudged) it
 * claims due rows with a lease, delivers each to its destination and marks
 * it delivered, or records the failure with exponential back-off
 * (`retryBaseMs` · 2^tries, at most an hour) and dead-letters it after
 * `maxAttempts` tries. Claims make several instances on one PostgreSQL
 * database deliver each row once; a row whose claimer died is due again when
 * the lease ends (at least once, never lost).
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import type { OutboxRow, OutboxStore } from "../store/types.ts";
import type { Destination } from "./destination.ts";
import type { AlertEvent, AlertEventKind, AlertSeverity } from "./events.ts";

/** Longest back-off between two tries. */
export const MAX_BACKOFF_MS = 3_600_000;

/** Rows claimed per round. */
const CLAIM_BATCH = 20;

/** Options of {@link startDelivery}. */
export interface DeliveryOptions {
  outbox: Pick<OutboxStore, "claim" | "delivered" | "failed">;
  destinations: ReadonlyMap<string, Destination>;
  /** This instance's id (claims name it). */
  instance: string;
  log: Logger;
  pollMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** Time limit of one delivery; the lease covers a whole batch of them. */
  timeoutMs: number;
  now?: () => Date;
  /** Poll and deliver on nudges (default true); without it only {@link DeliveryLoop.flush} delivers. */
  background?: boolean;
}

/** A running delivery loop. */
export interface DeliveryLoop {
  /** Runs a round soon (after an event was written). */
  nudge(): void;
  /** Runs rounds until nothing is due right now (tests, `alerts test`). */
  flush(): Promise<void>;
  /** Stops polling and waits for the round in flight. */
  stop(): Promise<void>;
}

/**
 * The back-off after a failed try: `base` · 2^(tries − 1), at most an hour.
 *
 * @example
 * ```ts
 * import { backoffMs } from "./delivery.ts";
 * backoffMs(1000, 3); // 4000
 * ```
 */
export function backoffMs(baseMs: number, tries: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, tries - 1));
}

/** The event an outbox row carries. */
export function eventOf(row: OutboxRow): AlertEvent {
  return {
    key: row.key,
    kind: row.kind as AlertEventKind,
    severity: row.severity as AlertSeverity,
    package: row.package,
    title: row.title,
    data: row.data,
    occurred_at: row.occurred_at,
  };
}

/** Starts the loop. */
export function startDelivery(options: DeliveryOptions): DeliveryLoop {
  const { outbox, log, instance } = options;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.timeoutMs * CLAIM_BATCH + 30_000;
  let stopped = false;
  let round: Promise<number> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function deliverOne(row: OutboxRow): Promise<void> {
    const destination = options.destinations.get(row.destination);
    const tries = row.attempts + 1;
    try {
      if (!destination) throw new Error(`destination ${row.destination} is not configured`);
      await destination.deliver(eventOf(row));
      await outbox.delivered(row.id, instance);
      log.info("alert delivered", { id: row.id, key: row.key, destination: row.destination });
    } catch (error) {
      const detail = (error as Error).message;
      const dead = tries >= options.maxAttempts || !destination;
      const retryAt = dead
        ? null
        : new Date(now().getTime() + backoffMs(options.retryBaseMs, tries)).toISOString();
      await outbox.failed(row.id, instance, detail, retryAt);
      const fields = {
        id: row.id,
        key: row.key,
        destination: row.destination,
        tries,
        retry_at: retryAt,
        detail,
      };
      if (dead) log.error("alert dead-lettered", fields);
      else log.warn("alert delivery failed", fields);
    }
  }

  async function runRound(): Promise<number> {
    let total = 0;
    do {
      again = false;
      const rows = await outbox.claim(instance, leaseMs, CLAIM_BATCH);
      for (const row of rows) {
        // One row's trouble (say, the store refusing its update) never strands the others' claims.
        await deliverOne(row).catch((error) =>
          log.error("alert delivery failed", { id: row.id, detail: (error as Error).message })
        );
      }
      total += rows.length;
      if (rows.length === CLAIM_BATCH) again = true;
    } while (again && !stopped);
    return total;
  }

  function kick(): Promise<number> {
    if (round) {
      again = true;
      return round;
    }
    round = runRound().catch((error) => {
      log.error("alert delivery round failed", { detail: (error as Error).message });
      return 0;
    }).finally(() => {
      round = null;
    });
    return round;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(async () => {
      await kick();
      schedule();
    }, options.pollMs);
  }
  const background = options.background ?? true;
  if (background && options.destinations.size > 0) schedule();

  return {
    nudge() {
      if (background && !stopped && options.destinations.size > 0) void kick();
    },
    async flush() {
      if (round) await round;
      while ((await kick()) > 0) {
        if (stopped) return;
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (round) await round;
    },
  };
}
