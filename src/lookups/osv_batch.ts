/**
 * The scanner's upstream calls: `POST /v1/querybatch` (≤ 1000 queries a
 * call, following each query's `next_page_token`) and `GET /v1/vulns/{id}`
 * with the record cached by id and `modified`.
 *
 * @module
 */
import { z } from "zod";
import { forEachLimit } from "../core/for_each_limit.ts";
import { fetchJson } from "./http.ts";
import { joinUrl } from "./osv.ts";
import { type OsvRecord, osvRecordSchema } from "./osv_records.ts";
import { osvRecordKey } from "./cached.ts";
import type { Cache } from "../cache/types.ts";

/** The most queries OSV accepts in one batch. */
export const MAX_BATCH_QUERIES = 1000;

const batchResponseSchema = z.object({
  results: z.array(z.object({
    vulns: z.array(z.object({ id: z.string().min(1), modified: z.string().optional() })).nullish(),
    next_page_token: z.string().nullish(),
  })),
});

/** Vulnerability ids (with their `modified` stamp) per package name. */
export type BatchIds = Map<string, Map<string, string>>;

/** Options of {@link queryBatch}. */
export interface QueryBatchOptions {
  baseUrl: string;
  timeoutMs: number;
  batchSize: number;
}

/**
 * Asks OSV for the vulnerability ids of every package (all versions) in
 * batches. Packages whose batch failed are returned in `failed` with the reason.
 */
export async function queryBatch(
  names: readonly string[],
  options: QueryBatchOptions,
): Promise<{ ids: BatchIds; failed: Map<string, string>; calls: number }> {
  const url = joinUrl(options.baseUrl, "/v1/querybatch");
  const size = Math.max(1, Math.min(options.batchSize, MAX_BATCH_QUERIES));
  const ids: BatchIds = new Map(names.map((n) => [n, new Map()]));
  const failed = new Map<string, string>();
  let calls = 0;
  let pending: Array<{ name: string; pageToken?: string }> = names.map((name) => ({ name }));
  const seenTokens = new Set<string>();
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (let i = 0; i < pending.length; i += size) {
      const chunk = pending.slice(i, i + size);
      calls++;
      const result = await fetchJson(url, batchResponseSchema, {
        method: "POST",
        timeoutMs: options.timeoutMs,
        body: {
          queries: chunk.map((q) => ({
            package: { name: q.name, ecosystem: "PyPI" },
            ...(q.pageToken ? { page_token: q.pageToken } : {}),
          })),
        },
      });
      const answered = result.ok && result.data.results.length === chunk.length;
      chunk.forEach((query, j) => {
        if (!answered) {
          failed.set(
            query.name,
            result.ok
              ? `POST ${url} answered ${result.data.results.length} results for ${chunk.length} queries`
              : result.detail,
          );
          return;
        }
        const answer = result.data.results[j];
        for (const v of answer.vulns ?? []) ids.get(query.name)!.set(v.id, v.modified ?? "");
        const token = answer.next_page_token;
        if (!token) return;
        const tokenKey = `${query.name}\u0000${token}`;
        if (seenTokens.has(tokenKey)) {
          failed.set(query.name, `POST ${url} repeated a page token`);
          return;
        }
        seenTokens.add(tokenKey);
        next.push({ name: query.name, pageToken: token });
      });
    }
    pending = next.filter((q) => !failed.has(q.name));
  }
  for (const name of failed.keys()) ids.delete(name);
  return { ids, failed, calls };
}

/** Options of {@link fetchRecords}. */
export interface FetchRecordsOptions {
  baseUrl: string;
  timeoutMs: number;
  cache: Cache;
  ttlSeconds: number;
  concurrency: number;
}

/**
 * Fetches the full records of these `id → modified` pairs: from the cache
 * when this exact revision is there, else with `GET /v1/vulns/{id}`.
 * Ids that could not be fetched are in `failed`.
 */
export async function fetchRecords(
  wanted: ReadonlyMap<string, string>,
  options: FetchRecordsOptions,
): Promise<{ records: Map<string, OsvRecord>; failed: Map<string, string>; calls: number }> {
  const records = new Map<string, OsvRecord>();
  const failed = new Map<string, string>();
  let calls = 0;
  await forEachLimit([...wanted], options.concurrency, async ([id, modified]) => {
    const key = osvRecordKey(id, modified);
    const hit = await options.cache.get<OsvRecord>(key);
    if (hit !== undefined) {
      records.set(id, hit);
      return;
    }
    calls++;
    const url = joinUrl(options.baseUrl, `/v1/vulns/${encodeURIComponent(id)}`);
    const result = await fetchJson(url, osvRecordSchema, { timeoutMs: options.timeoutMs });
    if (!result.ok) {
      failed.set(id, result.detail);
      return;
    }
    records.set(id, result.data);
    // Cached under the revision the batch announced, so a changed record is fetched again.
    await options.cache.set(key, result.data, options.ttlSeconds);
  });
  return { records, failed, calls };
}
