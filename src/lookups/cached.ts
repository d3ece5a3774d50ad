/**
 * Caching decorators of the lookup sources (SPEC §6.4). Answers with data are
 * cached for `CACHE_TTL_SECONDS`; `unavailable` answers never are, so the next
 * evaluation tries upstream again. A cached answer keeps the `fetched_at` of
 * its upstream fetch and comes back marked `cached`, so a decision shows the
 * real age of its data (in the memory and the Redis cache alike: both store
 * the JSON value). Keys carry a schema version, the PEP 503
 * name and, only for versioned queries, `==version`, so a version-less query
 * ("all versions") and a versioned one never share an entry.
 *
 * @module
 */
import type { LicenseFacts, VulnerabilityFacts } from "../core/types.ts";
import { normalizeName } from "../core/names.ts";
import { isShared, share } from "../core/decision_cache.ts";
import type { LookupOptions } from "./settings.ts";
import type { Logger } from "../log/logger.ts";
import type { Cache } from "../cache/types.ts";
import type { LicenseSource, VulnerabilitySource } from "./types.ts";
import { createOsvSource } from "./osv.ts";
import { createPypiSource } from "./pypi.ts";
import { createReleaseSource, type ReleaseSource } from "./pypi_releases.ts";
import { createUpstreamHealth, type UpstreamHealth } from "./upstream_health.ts";
import { behindBreakers } from "./breaker.ts";

/** Bumped whenever the shape of cached values changes. */
const KEY_VERSION = "v3";

function suffix(name: string, version: string | null): string {
  return version === null ? normalizeName(name) : `${normalizeName(name)}==${version.trim()}`;
}

/**
 * Cache key of an OSV query.
 *
 * @example
 * ```ts
 * osvQueryKey("Requests", null); // "policyd:v3:osv:query:requests"
 * osvQueryKey("requests", "2.31.0"); // "policyd:v3:osv:query:requests==2.31.0"
 * ```
 */
export function osvQueryKey(name: string, version: string | null): string {
  return `policyd:${KEY_VERSION}:osv:query:${suffix(name, version)}`;
}

/** Cache key of a PyPI license lookup (same shape as {@link osvQueryKey}). */
export function pypiLicenseKey(name: string, version: string | null): string {
  return `policyd:${KEY_VERSION}:pypi:license:${suffix(name, version)}`;
}

/** Cache key of one OSV record fetched by id; a new `modified` is a new key. */
export function osvRecordKey(id: string, modified: string): string {
  return `policyd:${KEY_VERSION}:osv:vuln:${id}@${modified}`;
}

/** A lookup by package name and optional version, as both sources offer. */
type Lookup<Facts> = (name: string, version: string | null) => Promise<Facts>;

/**
 * Wraps `lookup` with the cache under the key `keyOf` gives: a hit answers
 * marked `cached: true`; only `ok` answers are stored, so an unavailable
 * upstream is asked again next time.
 */
function cachedLookup<Facts extends VulnerabilityFacts | LicenseFacts>(
  lookup: Lookup<Facts>,
  keyOf: (name: string, version: string | null) => string,
  cache: Cache,
  ttlSeconds: number,
): Lookup<Facts> {
  // One shared "cached" view per stored value: a hit of the in-process
  // cache (a shared value, the same until it expires) answers the same object
  // each time, which lets the evaluation service recognise facts it has
  // already decided on (rule 3 of src/core/decision_cache.ts).
  const views = new WeakMap<Facts, Facts>();
  return async (name, version) => {
    const key = keyOf(name, version);
    const hit = await cache.get<Facts>(key);
    if (hit !== undefined && hit.status === "ok") {
      if (!isShared(hit)) return { ...hit, cached: true };
      let view = views.get(hit);
      if (view === undefined) {
        view = share({ ...hit, cached: true }) as Facts;
        views.set(hit, view);
      }
      return view;
    }
    const facts = await lookup(name, version);
    if (facts.status === "ok") await cache.set(key, { ...facts, cached: undefined }, ttlSeconds);
    return facts;
  };
}

/** Wraps a vulnerability source with the cache. */
export function withVulnerabilityCache(
  source: VulnerabilitySource,
  cache: Cache,
  ttlSeconds: number,
): VulnerabilitySource {
  return { query: cachedLookup((n, v) => source.query(n, v), osvQueryKey, cache, ttlSeconds) };
}

/** Wraps a license source with the cache. */
export function withLicenseCache(
  source: LicenseSource,
  cache: Cache,
  ttlSeconds: number,
): LicenseSource {
  return { lookup: cachedLookup((n, v) => source.lookup(n, v), pypiLicenseKey, cache, ttlSeconds) };
}

/** The two upstream sources the evaluation service needs. */
export interface LookupSources {
  vulnerabilities: VulnerabilitySource;
  licenses: LicenseSource;
  /** Outcomes of the upstream calls, for `/health` (absent for sources without upstreams). */
  upstreams?: UpstreamHealth;
  /** Release lists of the index (ranges judged as installed); absent without an index. */
  releases?: ReleaseSource;
}

/**
 * Creates the OSV and PyPI sources from the `lookups` options, each behind
 * its upstream's circuit breaker and the cache (entries live `ttlSeconds`).
 *
 * @example
 * ```ts
 * import { createMemoryCache } from "../cache/memory.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const lookups = { osvApiUrl: "https://api.osv.dev", pypiUrl: "https://pypi.org", timeoutMs: 4000 };
 * const cache = { store: createMemoryCache(), ttlSeconds: 21600 };
 * const { vulnerabilities, licenses } = createLookupSources(lookups, cache, log);
 * ```
 */
export function createLookupSources(
  settings: LookupOptions,
  caching: { store: Cache; ttlSeconds: number },
  log: Logger,
  now: () => Date = () => new Date(),
): LookupSources {
  const lookupLog = log.child({ component: "lookups" });
  const upstreams = createUpstreamHealth(now);
  const sources = { now, health: upstreams };
  const gated = behindBreakers({
    vulnerabilities: createOsvSource(settings, lookupLog, sources),
    licenses: createPypiSource(settings, lookupLog, sources),
  }, upstreams);
  return {
    vulnerabilities: withVulnerabilityCache(
      gated.vulnerabilities,
      caching.store,
      caching.ttlSeconds,
    ),
    licenses: withLicenseCache(gated.licenses, caching.store, caching.ttlSeconds),
    upstreams,
    releases: createReleaseSource({
      baseUrl: settings.pypiUrl,
      timeoutMs: settings.timeoutMs,
      cache: caching,
    }),
  };
}
