/**
 * Query parameters of `/dashboard/requests` and `/dashboard/history`: empty
 * values count as absent, package names are normalised as the API does, an
 * agent model matches by prefix.
 *
 * @module
 */
import { APPROVAL_STATUSES, type ApprovalStatus } from "../src/api/enums.ts";
import { DistributionNameSchema } from "../src/api/names.ts";
import { normalizeName } from "../src/core/names.ts";
import type { QueryIssue } from "../src/reports/params.ts";

/** Filters of the requests page. */
export interface RequestsQuery {
  status: ApprovalStatus | "all";
  project: string | null;
  package: string | null;
  agent_model: string | null;
  source: string | null;
}

/** Filters of the history page. */
export interface HistoryQuery {
  package: string | null;
  /** Entries older than this id. */
  before: number | null;
}

type Parsed<T> = { ok: true; query: T } | { ok: false; errors: QueryIssue[] };

const given = (raw: Record<string, string>, key: string) => {
  const value = raw[key]?.trim();
  return value ? value : null;
};

function packageName(raw: Record<string, string>, errors: QueryIssue[]): string | null {
  const name = given(raw, "package");
  if (name === null) return null;
  if (!DistributionNameSchema.safeParse(name).success) {
    errors.push({ path: "package", message: "not a package name (letters, digits, . _ -)" });
    return null;
  }
  return normalizeName(name);
}

/** Parses the requests page's query. */
export function parseRequestsQuery(raw: Record<string, string>): Parsed<RequestsQuery> {
  const errors: QueryIssue[] = [];
  const status = given(raw, "status") ?? "all";
  if (status !== "all" && !(APPROVAL_STATUSES as readonly string[]).includes(status)) {
    errors.push({ path: "status", message: `expected all, ${APPROVAL_STATUSES.join(", ")}` });
  }
  const query: RequestsQuery = {
    status: status as RequestsQuery["status"],
    project: given(raw, "project"),
    package: packageName(raw, errors),
    agent_model: given(raw, "agent_model")?.toLowerCase() ?? null,
    source: given(raw, "source"),
  };
  return errors.length ? { ok: false, errors } : { ok: true, query };
}

/** Parses the history page's query. */
export function parseHistoryQuery(raw: Record<string, string>): Parsed<HistoryQuery> {
  const errors: QueryIssue[] = [];
  const pkg = packageName(raw, errors);
  const before = given(raw, "before");
  let id: number | null = null;
  if (before !== null) {
    id = Number(before);
    if (!Number.isSafeInteger(id) || id < 1) {
      errors.push({ path: "before", message: "expected a change id (a positive integer)" });
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, query: { package: pkg, before: id } };
}
