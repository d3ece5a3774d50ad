/**
 * The CVE scanner's vulnerability source: OSV's batch query for every name,
 * then each advisory record (cached by id and revision), turned into the
 * core's vulnerabilities. Each fully answered package also refreshes the
 * evaluation's version-less lookup cache entry, so the next evaluation of it
 * needs no upstream call.
 *
 * @module
 */
import type { Cache } from "../cache/types.ts";
import { forEachLimit } from "../core/for_each_limit.ts";
import type { Logger } from "../log/logger.ts";
import { osvQueryKey } from "./cached.ts";
import { fetchRecords, MAX_BATCH_QUERIES, queryBatch } from "./osv_batch.ts";
import { type OsvRecord, toVulnerabilities } from "./osv_records.ts";
import type { LookupOptions } from "./settings.ts";
import type { ScanResult, VulnerabilityScanSource } from "./types.ts";

/** Options of {@link createOsvScanSource}. */
export interface OsvScanOptions {
  /** The `lookups` area's OSV base URL and per-request time limit. */
  lookups: Pick<LookupOptions, "osvApiUrl" | "timeoutMs">;
  /** The lookup cache and how long its entries live. */
  cache: { store: Cache; ttlSeconds: number };
  log: Logger;
  /** Queries per batch call, at most 1000 (default). */
  batchSize?: number;
  /** Time-out of one batch call. Default the larger of `timeoutMs` and 30 s. */
  batchTimeoutMs?: number;
  /** Record fetches in flight at once. Default 16. */
  concurrency?: number;
}

/**
 * Creates the OSV scan source.
 *
 * @example
 * ```ts
 * import { createMemoryCache } from "../cache/memory.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const osv = createOsvScanSource({
 *   lookups: { osvApiUrl: "https://api.osv.dev", timeoutMs: 4000 },
 *   cache: { store: createMemoryCache(), ttlSeconds: 21600 },
 *   log,
 * });
 * const { vulnerabilities, failed } = await osv.scan(["requests", "jinja2"]);
 * ```
 */
export function createOsvScanSource(options: OsvScanOptions): VulnerabilityScanSource {
  const { lookups, cache, log } = options;
  return {
    async scan(names): Promise<ScanResult> {
      const batch = await queryBatch(names, {
        baseUrl: lookups.osvApiUrl,
        timeoutMs: options.batchTimeoutMs ?? Math.max(lookups.timeoutMs, 30_000),
        batchSize: options.batchSize ?? MAX_BATCH_QUERIES,
      });
      for (const [name, detail] of batch.failed) {
        log.warn("cve scan: batch query failed", { package: name, detail });
      }
      const wanted = new Map<string, string>();
      for (const ids of batch.ids.values()) {
        for (const [id, modified] of ids) wanted.set(id, modified);
      }
      const details = await fetchRecords(wanted, {
        baseUrl: lookups.osvApiUrl,
        timeoutMs: lookups.timeoutMs,
        cache: cache.store,
        ttlSeconds: cache.ttlSeconds,
        concurrency: options.concurrency ?? 16,
      });
      for (const [id, detail] of details.failed) {
        log.warn("cve scan: record fetch failed", { id, detail });
      }
      const vulnerabilities = new Map<string, ReturnType<typeof toVulnerabilities>>();
      const failed = new Map(batch.failed);
      await forEachLimit([...batch.ids], options.concurrency ?? 16, async ([name, ids]) => {
        const missing = [...ids.keys()].find((id) => details.failed.has(id));
        if (missing !== undefined) {
          failed.set(name, `record ${missing}: ${details.failed.get(missing)}`);
          return;
        }
        const records = [...ids.keys()].map((id) => details.records.get(id)!) as OsvRecord[];
        const found = toVulnerabilities(records, name);
        vulnerabilities.set(name, found);
        await cache.store.set(
          osvQueryKey(name, null),
          { status: "ok", vulnerabilities: found },
          cache.ttlSeconds,
        );
      });
      return {
        vulnerabilities,
        failed,
        calls: { batch: batch.calls, detail: details.calls },
      };
    },
  };
}
