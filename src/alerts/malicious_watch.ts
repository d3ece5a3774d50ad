/**
 * The malicious watch, run after each scan pass: every package the audit log
 * saw in the last 30 days is asked of OSV (the scanner's batch query and
 * cached record fetches), and each package with malicious-package
 * advisories (`MAL-…` ids or aliases) yields a `malicious_seen` naming the
 * projects and versions that used it. The event's key is the package and its
 * advisory ids, the same key the scanner's own malicious rows produce once
 * the threats work writes them, so either path alerts once.
 *
 * @module
 */
import type { Cache } from "../cache/types.ts";
import type { Logger } from "../log/logger.ts";
import type { OsvRecord } from "../lookups/osv_records.ts";
import { fetchRecords, MAX_BATCH_QUERIES, queryBatch } from "../scanner/osv_batch.ts";
import type { AuditStore } from "../store/types.ts";
import type { Alerter } from "./alerter.ts";
import { type AlertEvent, maliciousSeenEvent } from "./events.ts";

/** Options of {@link runMaliciousWatch}. */
export interface MaliciousWatchDeps {
  alerter: Pick<Alerter, "emit" | "usesOf">;
  audit: Pick<AuditStore, "group">;
  osvApiUrl: string;
  timeoutMs: number;
  cache: Cache;
  cacheTtlSeconds: number;
  log: Logger;
  now?: () => Date;
}

/** Whether an OSV record is a malicious-package advisory; its MAL id if so. */
export function maliciousId(record: OsvRecord): string | null {
  if (record.withdrawn) return null;
  if (record.id.startsWith("MAL-")) return record.id;
  return record.aliases?.find((a) => a.startsWith("MAL-")) ?? null;
}

/** Runs one watch; returns the events written. */
export async function runMaliciousWatch(deps: MaliciousWatchDeps): Promise<number> {
  const now = (deps.now ?? (() => new Date()))();
  const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const groups = await deps.audit.group({ since }, ["package"]);
  const names = groups.map((g) => g.keys.package ?? "").filter(Boolean);
  if (names.length === 0) return 0;
  const batch = await queryBatch(names, {
    baseUrl: deps.osvApiUrl,
    timeoutMs: Math.max(deps.timeoutMs, 30_000),
    batchSize: MAX_BATCH_QUERIES,
  });
  const wanted = new Map<string, string>();
  for (const ids of batch.ids.values()) for (const [id, modified] of ids) wanted.set(id, modified);
  const details = await fetchRecords(wanted, {
    baseUrl: deps.osvApiUrl,
    timeoutMs: deps.timeoutMs,
    cache: deps.cache,
    ttlSeconds: deps.cacheTtlSeconds,
    concurrency: 8,
  });
  const events: AlertEvent[] = [];
  for (const [name, ids] of batch.ids) {
    const advisories = new Map<string, string | null>();
    for (const id of ids.keys()) {
      const record = details.records.get(id);
      const mal = record ? maliciousId(record) : null;
      if (record && mal) advisories.set(mal, record.summary ?? null);
    }
    if (advisories.size === 0) continue;
    events.push(maliciousSeenEvent({
      package: name,
      advisories: [...advisories].map(([id, summary]) => ({ id, summary })),
      projects: await deps.alerter.usesOf(name),
      occurred_at: now.toISOString(),
    }));
  }
  const written = await deps.alerter.emit(events);
  deps.log.info("malicious watch finished", {
    packages: names.length,
    malicious: events.length,
    written,
  });
  return written;
}
