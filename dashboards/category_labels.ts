/**
 * The dashboards' names and colours of the denial categories (a data table).
 *
 * @module
 */
import type { AuditCategory } from "../src/store/types.ts";

/** Human names of the denial categories. */
export const CATEGORY_LABELS: Record<AuditCategory, string> = {
  DENIAL_BANNED: "Banned",
  DENIAL_DEPRECATED: "Deprecated",
  DENIAL_VERSION_CONSTRAINT: "Version constraint",
  DENIAL_CVE: "CVE",
  DENIAL_LICENSE: "License",
  DENIAL_LICENSE_UNKNOWN: "Unknown license",
  DENIAL_DATA_UNAVAILABLE: "Data unavailable",
  DENIAL_MALICIOUS: "Malicious",
  DENIAL_NOT_FOUND: "Not on PyPI",
  DENIAL_TYPOSQUAT: "Typosquat",
  DENIAL_NEW_PROJECT: "New project",
  DENIAL_YANKED: "Yanked",
  DENIAL_CVE_ALERT: "Scanner alert",
};

/** CSS kinds (chart and bar colours) of the denial categories. */
export const CATEGORY_KINDS: Record<AuditCategory, string> = {
  DENIAL_BANNED: "cat-banned",
  DENIAL_DEPRECATED: "cat-deprecated",
  DENIAL_VERSION_CONSTRAINT: "cat-version",
  DENIAL_CVE: "cat-cve",
  DENIAL_LICENSE: "cat-license",
  DENIAL_LICENSE_UNKNOWN: "cat-unknown",
  DENIAL_DATA_UNAVAILABLE: "cat-data",
  DENIAL_MALICIOUS: "cat-malicious",
  DENIAL_NOT_FOUND: "cat-threat",
  DENIAL_TYPOSQUAT: "cat-threat",
  DENIAL_NEW_PROJECT: "cat-threat",
  DENIAL_YANKED: "cat-threat",
  DENIAL_CVE_ALERT: "cat-alert",
};

/** The label of a denial category (or "—"). */
export function categoryLabel(category: string | null | undefined): string {
  return category ? CATEGORY_LABELS[category as AuditCategory] ?? category : "—";
}
