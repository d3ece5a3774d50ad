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

/** The two lookup sources an upstream breaker gates. */
export interface GatedSources {
  vulnerabilities: VulnerabilitySource;
  licenses: LicenseSource;
}

/**
 * Gates OSV lookups with the `osv` breaker of `health` and PyPI lookups with
 * the `pypi` one.
 *
 * @example
 * ```ts
 * import { createUpstreamHealth } from "./upstream_health.ts";
 * import { noLicenseData, noVulnerabilityData } from "./none.ts";
 * const health = createUpstreamHealth();
 * const gated = behindBreakers(
 *   { vulnerabilities: noVulnerabilityData, licenses: noLicenseData },
 *   health,
 * );
 * health.failure("osv", "POST https://api.osv.dev/v1/query timed out");
 * await gated.vulnerabilities.query("requests", null); // { status: "unavailable", detail: "OSV skipped: …" }
 * ```
 */
export function behindBreakers(sources: GatedSources, health: UpstreamHealth): GatedSources {
  const { vulnerabilities, licenses } = sources;
  return {
    vulnerabilities: {
      query: (name, version) => admitted(health, "osv", () => vulnerabilities.query(name, version)),
    },
    licenses: {
      lookup: (name, version) => admitted(health, "pypi", () => licenses.lookup(name, version)),
    },
  };
}
