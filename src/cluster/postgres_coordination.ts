/**
 * Coordination through the shared PostgreSQL database: registry reloads are
 * announced with `NOTIFY` on one channel (`LISTEN` delivers them to every
 * other instance of the same database), and each scheduled scanner tick is
 * claimed by inserting its row into `scanner_passes` (the primary key lets
 * exactly one instance win, however far apart their cron timers fire).
 *
 * @module
 */
import type { Sql } from "../store/postgres_connection.ts";
import type { Logger } from "../log/logger.ts";
import type { Coordination, ReloadAnnouncement, ScanPassRecord } from "./coordination.ts";

/** The NOTIFY channel of registry reloads. */
export const RELOAD_CHANNEL = "policyd_registry_reload";

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as Date).toISOString();

/**
 * Creates the coordination on a migrated database's connection pool; `now`
 * stamps the scanner's pass records.
 *
 * @example
 * ```ts ignore
 * // ignore: needs a PostgreSQL server
 * const coordination = postgresCoordination(store.sql, "host:42", log);
 * await coordination.onReload(({ instance }) => console.log(instance, "reloaded"));
 * ```
 */
export function postgresCoordination(
  sql: Sql,
  instance: string,
  log: Logger,
  now: () => Date = () => new Date(),
): Coordination {
  const listeners: Array<{ unlisten(): Promise<void> }> = [];
  return {
    instance,
    clustered: true,
    async announceReload(version) {
      const announcement: ReloadAnnouncement = { instance, version };
      await sql.notify(RELOAD_CHANNEL, JSON.stringify(announcement));
    },
    async onReload(handler) {
      const listener = await sql.listen(RELOAD_CHANNEL, (payload) => {
        let announcement: ReloadAnnouncement;
        try {
          announcement = JSON.parse(payload);
        } catch {
          log.warn("ignored a malformed reload announcement", { payload: payload.slice(0, 200) });
          return;
        }
        if (announcement.instance !== instance) handler(announcement);
      });
      listeners.push(listener);
    },
    async claimScanTick(tick) {
      const claimed = await sql.unsafe(
        `INSERT INTO scanner_passes (tick, instance, started_at) VALUES ($1, $2, $3)
         ON CONFLICT (tick) DO NOTHING RETURNING tick`,
        [tick.toISOString(), instance, now().toISOString()],
      );
      return claimed.length === 1;
    },
    async finishScanTick(tick, outcome) {
      await sql.unsafe(
        `UPDATE scanner_passes SET finished_at = $1, rows = $2, error = $3
         WHERE tick = $4 AND instance = $5`,
        [now().toISOString(), outcome.rows, outcome.error, tick.toISOString(), instance],
      );
    },
    async lastScanPass(): Promise<ScanPassRecord | null> {
      const rows = await sql.unsafe(`SELECT * FROM scanner_passes ORDER BY tick DESC LIMIT 1`);
      if (rows.length === 0) return null;
      const row = rows[0];
      return {
        tick: iso(row.tick)!,
        instance: String(row.instance),
        started_at: iso(row.started_at)!,
        finished_at: iso(row.finished_at),
        rows: row.rows === null ? null : Number(row.rows),
        error: row.error as string | null,
      };
    },
    async close() {
      for (const listener of listeners.splice(0)) {
        await listener.unlisten().catch(() => {});
      }
    },
  };
}
