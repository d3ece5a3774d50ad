/**
 * The alert outbox's columns and row mapping, once for both backends.
 *
 * @module
 */
import type { ColumnReader, StoredRow } from "./row_mapping.ts";
import { OUTBOX_STATES, type OutboxEntry, type OutboxRow, type OutboxState } from "./types.ts";

/** Columns an entry writes, in the order of {@link outboxValues}. */
export const OUTBOX_INSERT_COLUMNS = [
  "event_key",
  "destination",
  "kind",
  "severity",
  "package",
  "title",
  "data",
  "occurred_at",
  "created_at",
  "next_attempt_at",
] as const;

/** The values of one entry written at `now` (due at once); `data` as JSON text. */
export function outboxValues(entry: OutboxEntry, now: string): Array<string | null> {
  return [
    entry.key,
    entry.destination,
    entry.kind,
    entry.severity,
    entry.package,
    entry.title,
    JSON.stringify(entry.data),
    entry.occurred_at,
    now,
    now,
  ];
}

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** Maps a stored `alert_outbox` row. */
export function outboxRowFrom(row: StoredRow, read: ColumnReader): OutboxRow {
  const state = String(row.state);
  return {
    id: Number(row.id),
    key: String(row.event_key),
    destination: String(row.destination),
    kind: String(row.kind),
    severity: String(row.severity),
    package: text(row.package),
    title: String(row.title),
    data: read.json<Record<string, unknown>>(row.data, {}),
    occurred_at: read.time(row.occurred_at),
    created_at: read.time(row.created_at),
    state: (OUTBOX_STATES as readonly string[]).includes(state) ? state as OutboxState : "pending",
    attempts: Number(row.attempts),
    next_attempt_at: read.time(row.next_attempt_at),
    last_error: text(row.last_error),
    delivered_at: row.delivered_at === null || row.delivered_at === undefined
      ? null
      : read.time(row.delivered_at),
    claimed_by: text(row.claimed_by),
  };
}

/** Longest error text kept on a row. */
export const MAX_OUTBOX_ERROR = 1000;
