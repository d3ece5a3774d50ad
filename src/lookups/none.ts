/**
 * Lookup sources that never have data. Used when upstream lookups are
 * switched off and as the default in unit tests of the HTTP layer.
 *
 * @module
 */
import type { LicenseSource, VulnerabilitySource } from "./types.ts";

/** A vulnerability source that always answers "no data". */
export const noVulnerabilityData: VulnerabilitySource = {
  query: () => Promise.resolve({ status: "unavailable", detail: "vulnerability lookups disabled" }),
};

/** A license source that always answers "no data". */
export const noLicenseData: LicenseSource = {
  lookup: () => Promise.resolve({ status: "unavailable", detail: "license lookups disabled" }),
};
