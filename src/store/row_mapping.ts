/**
 * Stored rows → domain objects, once for both backends. A backend passes how
 * its driver returns times (SQLite: ISO text; PostgreSQL: `Date`) and JSON
 * columns (SQLite: text; PostgreSQL: already parsed `jsonb`).
 *
 * @module
 */
import type { ChangeKind } from "../api/enums.ts";
import type {
  ApprovalRequest,
  ApprovalStatus,
  AuditRow,
  ChangedRule,
  NewApprovalRequest,
  NewRegistryChange,
  RegistryChange,
} from "./types.ts";

/** How one backend's driver returns column values. */
export interface ColumnReader {
  /** A non-null timestamp as ISO-8601 text. */
  time(value: unknown): string;
  /** A JSON column's value, or `fallback` when it is NULL. */
  json<T>(value: unknown, fallback: T): T;
}

/** A stored row: column name → driver value. */
export type StoredRow = Record<string, unknown>;

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/**
 * Maps a stored `audit_log` row to an {@link AuditRow}.
 *
 * @example
 * ```ts
 * const sqlite: ColumnReader = { time: String, json: (v, f) => v == null ? f : JSON.parse(String(v)) };
 * auditRowFrom({ id: 1, ts: "2026-11-21T09:00:00.000Z", package: "requests" }, sqlite).id; // 1
 * ```
 */
export function auditRowFrom(row: StoredRow, read: ColumnReader): AuditRow {
  return {
    id: Number(row.id),
    ts: read.time(row.ts),
    package: String(row.package),
    version: text(row.version),
    license: text(row.license),
    verdict: row.verdict as AuditRow["verdict"],
    project: String(row.project),
    requester: String(row.requester),
    agent_model: text(row.agent_model),
    agent_version: text(row.agent_version),
    source: String(row.source),
    denial_category: (row.denial_category ?? null) as AuditRow["denial_category"],
    cve_ids: read.json<string[]>(row.cve_ids, []),
    max_cvss: row.max_cvss === null || row.max_cvss === undefined ? null : Number(row.max_cvss),
    registry_status: (row.registry_status ?? null) as AuditRow["registry_status"],
    registry_version: text(row.registry_version),
    license_raw: text(row.license_raw),
    reason: String(row.reason ?? ""),
    data: read.json<AuditRow["data"]>(row.data, null),
    exceptions_applied: read.json<AuditRow["exceptions_applied"]>(row.exceptions_applied, []),
    threats: read.json<NonNullable<AuditRow["threats"]>>(row.threats, []),
  };
}

/** Maps a stored `approval_requests` row to an {@link ApprovalRequest}. */
export function approvalFrom(row: StoredRow, read: ColumnReader): ApprovalRequest {
  return {
    id: Number(row.id),
    package: String(row.package),
    version: text(row.version),
    project: String(row.project),
    requester: String(row.requester),
    rationale: String(row.rationale),
    agent_model: text(row.agent_model),
    agent_version: text(row.agent_version),
    status: row.status as ApprovalStatus,
    created_at: read.time(row.created_at),
    decided_at: row.decided_at === null || row.decided_at === undefined
      ? null
      : read.time(row.decided_at),
    proposal_status: text(row.proposal_status),
    proposal_detail: text(row.proposal_detail),
    source: text(row.source),
    decided_by: text(row.decided_by),
    decision_reason: text(row.decision_reason),
  };
}

/** Columns of `approval_requests` an insert writes, in the order of {@link approvalValues}. */
export const APPROVAL_INSERT_COLUMNS = [
  "package",
  "version",
  "project",
  "requester",
  "rationale",
  "agent_model",
  "agent_version",
  "source",
  "status",
  "created_at",
] as const;

/** The values of a new approval request's insert (status `PENDING_REVIEW`), for both backends. */
export function approvalValues(
  request: NewApprovalRequest,
  createdAt: string,
): Array<string | null> {
  return [
    request.package,
    request.version,
    request.project,
    request.requester,
    request.rationale,
    request.agent_model,
    request.agent_version,
    request.source ?? null,
    "PENDING_REVIEW",
    createdAt,
  ];
}

/** Columns of `registry_changes` an insert writes, in the order of {@link changeValues}. */
export const CHANGE_INSERT_COLUMNS = [
  "ts",
  "package",
  "kind",
  "before",
  "after",
  "actor",
  "proposer",
  "previous_version",
  "registry_version",
  "url",
  "reverts",
  "request_id",
  "detail",
] as const;

/** The values of a change-log insert (rules as JSON text), once for both backends. */
export function changeValues(
  change: NewRegistryChange,
  ts: string,
): Array<string | number | null> {
  const json = (value: unknown) => value === null ? null : JSON.stringify(value);
  return [
    ts,
    change.package,
    change.kind,
    json(change.before),
    json(change.after),
    change.actor,
    change.proposer,
    change.previous_version,
    change.registry_version,
    change.url,
    change.reverts,
    change.request_id,
    change.detail,
  ];
}

/** Maps a stored `registry_changes` row to a {@link RegistryChange}. */
export function changeFrom(row: StoredRow, read: ColumnReader): RegistryChange {
  const num = (value: unknown) => value === null || value === undefined ? null : Number(value);
  return {
    id: Number(row.id),
    ts: read.time(row.ts),
    package: String(row.package),
    kind: String(row.kind) as ChangeKind,
    before: read.json<ChangedRule | null>(row.before, null),
    after: read.json<ChangedRule | null>(row.after, null),
    actor: text(row.actor),
    proposer: text(row.proposer),
    previous_version: text(row.previous_version),
    registry_version: text(row.registry_version),
    url: text(row.url),
    reverts: num(row.reverts),
    request_id: num(row.request_id),
    detail: String(row.detail ?? ""),
  };
}

/** SQLite returns times as the ISO text it stored and JSON columns as text. */
export const SQLITE_COLUMNS: ColumnReader = {
  time: (value) => String(value),
  json: <T>(value: unknown, fallback: T): T =>
    value === null || value === undefined || value === "" ? fallback : JSON.parse(String(value)),
};

/** PostgreSQL returns `timestamptz` as `Date` and `jsonb` already parsed. */
export const POSTGRES_COLUMNS: ColumnReader = {
  time: (value) =>
    value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString(),
  json: <T>(value: unknown, fallback: T): T =>
    value === null || value === undefined ? fallback : value as T,
};
