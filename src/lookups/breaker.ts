/**
 * The lookup sources behind their upstream's circuit breaker
 * ({@link UpstreamHealth.admit}): while the breaker is open a lookup answers
 * `{status: "unavailable"}` at once, saying why, instead of calling an
 * upstream that just failed. Sits under the cache, so cached answers are
 * still served.
 *
 * @module
 */
import type { LicenseSource, VulnerabilitySource } from "./types.ts";
import type { UpstreamHealth } from "./upstream_health.ts";

/** The lookup when `upstream`'s breaker admits it, else an unavailable answer saying why. */
function admitted<F>(
  health: UpstreamHealth,
  upstream: Parameters<UpstreamHealth["admit"]>[0],
  lookup: () => Promise<F>,
): Promise<F | { status: "unavailable"; detail: string }> {
  const skipped = health.admit(upstream);
  return skipped === null ? lookup() : Promise.resolve({ status: "unavailable", detail: skipped });
}

/**
 * Gates OSV lookups with the `osv` breaker of `health`.
 *
 * @example
 * ```ts
 * import { createUpstreamHealth } from "./upstream_health.ts";
 * import { noVulnerabilityData } from "./none.ts";
 * const health = createUpstreamHealth();
 * const osv = vulnerabilitiesBehindBreaker(noVulnerabilityData, health);
 * health.failure("osv", "POST https://api.osv.dev/v1/query timed out");
 * await osv.query("requests", null); // { status: "unavailable", detail: "OSV skipped: …" }
 * ```
 */
export function vulnerabilitiesBehindBreaker(
  source: VulnerabilitySource,
  health: UpstreamHealth,
): VulnerabilitySource {
  return {
    query: (name, version) => admitted(health, "osv", () => source.query(name, version)),
  };
}

/** Gates PyPI lookups with the `pypi` breaker of `health` (as {@link vulnerabilitiesBehindBreaker}). */
export function licensesBehindBreaker(
  source: LicenseSource,
  health: UpstreamHealth,
): LicenseSource {
  return {
    lookup: (name, version) => admitted(health, "pypi", () => source.lookup(name, version)),
  };
}
