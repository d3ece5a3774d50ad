/**
 * Storage interface of the audit log (re-exported by `types.ts`, which the
 * services import).
 *
 * @module
 */
import type {
  AppliedException,
  DecisionData,
  DenialCategory,
  RegistryStatus,
  Threat,
  Verdict,
} from "../core/types.ts";
import type { AuditRowDocument } from "../api/audit_row.ts";
import type { Holds, SameType } from "../api/contract.ts";

/** Verdict column values: evaluation verdicts plus scanner alerts. */
export type AuditVerdict = Verdict | "CVE_ALERT";

/** Denial category column values: evaluation categories plus scanner alerts. */
export type AuditCategory = DenialCategory | "DENIAL_CVE_ALERT";

/** An audit row before it is stored. */
export interface NewAuditRow {
  package: string;
  version: string | null;
  license: string | null;
  verdict: AuditVerdict;
  project: string;
  requester: string;
  agent_model: string | null;
  agent_version: string | null;
  source: string;
  denial_category: AuditCategory | null;
  cve_ids: string[];
  max_cvss: number | null;
  registry_status: RegistryStatus | null;
  registry_version: string | null;
  license_raw: string | null;
  reason: string;
  /** What the decision knew (issue 14); null for scanner alerts and rows before it. */
  data?: DecisionData | null;
  /** Exceptions that waived findings of this decision. */
  exceptions_applied?: AppliedException[];
  /** Supply-chain threats the decision found (SPEC §17.2); [] for rows before them. */
  threats?: Threat[];
}

/** An audit row as stored (SPEC §8). `ts` is an ISO-8601 UTC timestamp. */
export interface AuditRow extends NewAuditRow {
  id: number;
  ts: string;
}

/** Filter of audit queries; every field narrows the set. */
export interface AuditFilter {
  /** Inclusive lower bound on `ts` (ISO-8601). */
  since?: string;
  project?: string;
  package?: string;
  verdicts?: AuditVerdict[];
  categories?: AuditCategory[];
  /** Keep only rows whose license equals this value. */
  license?: string;
  /** Keep only rows with a non-null license. */
  hasLicense?: boolean;
  /** Keep only rows whose data of this kind was unavailable. */
  dataUnavailable?: "vulnerabilities" | "license";
  packages?: string[];
  /** Exclusive upper bound on `ts` (ISO-8601). */
  until?: string;
  agent_model?: string;
  /** Keep only rows whose agent model starts with this text (case-insensitive). */
  agentModelPrefix?: string;
  source?: string;
  /** Keep only rows recorded while the registry listed the package (`registry_status` set). */
  registryKnown?: boolean;
  /** Keyset cursor: only rows after this one in newest-first order. */
  before?: { ts: string; id: number };
}

/** Columns audit rows can be grouped by. */
export type AuditGroupKey =
  | "package"
  | "project"
  | "license"
  | "verdict"
  | "agent_model"
  | "agent_version"
  | "source"
  /** CVSS band of `max_cvss` (critical, high, medium, low, unknown). */
  | "severity"
  /** One group per CVE id listed in `cve_ids` (a row counts once per id). */
  | "cve"
  /** The UTC day of `ts` (`YYYY-MM-DD`). */
  | "day"
  /** The `denial_category` column. */
  | "category";

/** One group of an audit aggregation. */
export interface AuditGroup {
  /** The group's values, keyed by the grouping columns. */
  keys: Partial<Record<AuditGroupKey, string | null>>;
  count: number;
  max_cvss: number | null;
  last_ts: string;
  /** Distinct projects of the group's rows, sorted. */
  projects: string[];
  /** Distinct CVE ids of the group's rows, sorted. */
  cve_ids: string[];
}

/** Append-only audit log with the queries reports and the pending queue need. */
export interface AuditStore {
  /** Commits one row and returns it with its id and timestamp. */
  insert(row: NewAuditRow): Promise<AuditRow>;
  /** Commits many rows in one transaction, in order. */
  insertMany(rows: NewAuditRow[]): Promise<AuditRow[]>;
  /** Rows matching the filter, newest first. */
  list(filter: AuditFilter, limit: number): Promise<AuditRow[]>;
  /** Row counts and rollups per group, largest count first. */
  group(filter: AuditFilter, by: AuditGroupKey[]): Promise<AuditGroup[]>;
  /** The newest scanner alert of a package, if any. */
  lastAlert(pkg: string): Promise<AuditRow | undefined>;
}

/** The read side of the audit log, all that reports and dashboards need. */
export type AuditReader = Pick<AuditStore, "list" | "group">;

/** The stored row is the row the API answers (compiles only while they agree). */
export type AuditRowIsWireShape = Holds<SameType<AuditRow, AuditRowDocument>>;
