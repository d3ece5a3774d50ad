/**
 * The honesty parts of the security and legal reports (issue 14): how many
 * evaluations in the window rested on unavailable data, and which registry
 * exceptions expire soon or have expired. Dashboards show a banner from
 * exactly these fields and never an all-clear when data was missing.
 *
 * @module
 */
import { isLive, utcDay } from "../core/exceptions.ts";
import type { RegistryException, RegistrySnapshot } from "../core/types.ts";
import type { AuditReader } from "../store/types.ts";
import { EVALUATION_VERDICTS, type ReportParams, windowFilter } from "./params.ts";

/** Evaluations in the window and how many lacked each kind of data. */
export interface DataAvailability {
  evaluations: number;
  vulnerabilities_unavailable: number;
  license_unavailable: number;
}

/** An exception as reports list it. */
export interface ReportedException extends RegistryException {
  /** Whole days until it expires (0 = expires today); negative once expired. */
  days_left: number;
}

/** Exceptions expiring within {@link EXPIRY_WARNING_DAYS} days, and expired ones. */
export interface ExceptionsDue {
  expiring: ReportedException[];
  expired: ReportedException[];
}

/** How far ahead reports warn about expiring exceptions. */
export const EXPIRY_WARNING_DAYS = 14;

/** Counts the window's evaluations and those whose lookups were unavailable. */
export async function dataAvailability(
  audit: AuditReader,
  params: ReportParams,
): Promise<DataAvailability> {
  const evaluations = { ...windowFilter(params), verdicts: [...EVALUATION_VERDICTS] };
  const [all, vulns, license] = await Promise.all([
    audit.group(evaluations, []),
    audit.group({ ...evaluations, dataUnavailable: "vulnerabilities" }, []),
    audit.group({ ...evaluations, dataUnavailable: "license" }, []),
  ]);
  return {
    evaluations: all[0]?.count ?? 0,
    vulnerabilities_unavailable: vulns[0]?.count ?? 0,
    license_unavailable: license[0]?.count ?? 0,
  };
}

function daysLeft(exception: RegistryException, now: Date): number {
  const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
  return Math.round((Date.parse(`${exception.expires}T00:00:00Z`) - today) / 86_400_000);
}

/**
 * The exceptions a report should warn about, soonest first.
 *
 * @example
 * ```ts
 * import { exceptionsDue } from "./data_availability.ts";
 * import type { RegistrySnapshot } from "../core/types.ts";
 * declare const snapshot: RegistrySnapshot;
 * exceptionsDue(snapshot, new Date(), (e) => Boolean(e.vulnerabilities)).expired;
 * ```
 */
export function exceptionsDue(
  snapshot: RegistrySnapshot | null,
  now: Date,
  relevant: (exception: RegistryException) => boolean,
): ExceptionsDue {
  const due: ExceptionsDue = { expiring: [], expired: [] };
  for (const exception of snapshot?.registry.exceptions ?? []) {
    if (!relevant(exception)) continue;
    const entry = { ...exception, days_left: daysLeft(exception, now) };
    if (!isLive(exception, now)) due.expired.push(entry);
    else if (entry.days_left <= EXPIRY_WARNING_DAYS) due.expiring.push(entry);
  }
  const order = (a: ReportedException, b: ReportedException) =>
    a.expires.localeCompare(b.expires) || a.package.localeCompare(b.package);
  due.expiring.sort(order);
  due.expired.sort(order);
  return due;
}
