/**
 * Vulnerability lookups against the OSV API (SPEC §6.2): `POST /v1/query`
 * for one PyPI package, at a version or across all versions, following
 * `next_page_token`.
 *
 * @module
 */
import { z } from "zod";
import type { VulnerabilityFacts } from "../core/types.ts";
import type { Logger } from "../log/logger.ts";
import type { SourceOptions, VulnerabilitySource } from "./types.ts";
import type { LookupOptions } from "./settings.ts";
import { fetchJson } from "./http.ts";
import { type OsvRecord, osvRecordSchema, toVulnerabilities } from "./osv_records.ts";

const queryResponseSchema = z.object({
  vulns: z.array(osvRecordSchema).nullish(),
  next_page_token: z.string().nullish(),
});

/** Safety net against an upstream that hands out page tokens forever. */
const MAX_PAGES = 100;

/** The `lookups` options the OSV adapter reads. */
export type OsvSettings = Pick<LookupOptions, "osvApiUrl" | "timeoutMs">;

/** Joins a base URL (with or without a trailing slash) and an absolute path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

/**
 * Fetches every OSV record of a package (and version), all pages, within one
 * deadline of `timeoutMs`. Returns the records or the reason they could not be had.
 */
export async function queryOsvRecords(
  baseUrl: string,
  name: string,
  version: string | null,
  timeoutMs: number,
): Promise<{ ok: true; records: OsvRecord[] } | { ok: false; detail: string }> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const url = joinUrl(baseUrl, "/v1/query");
  const records: OsvRecord[] = [];
  const tokens = new Set<string>();
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = {
      package: { name, ecosystem: "PyPI" },
      ...(version === null ? {} : { version }),
      ...(pageToken === undefined ? {} : { page_token: pageToken }),
    };
    const result = await fetchJson(url, queryResponseSchema, {
      method: "POST",
      body,
      timeoutMs,
      signal: deadline,
    });
    if (!result.ok) return { ok: false, detail: result.detail };
    records.push(...(result.data.vulns ?? []));
    const next = result.data.next_page_token ?? undefined;
    if (!next) return { ok: true, records };
    if (tokens.has(next)) return { ok: false, detail: `POST ${url} repeated a page token` };
    tokens.add(next);
    pageToken = next;
  }
  return { ok: false, detail: `POST ${url} returned more than ${MAX_PAGES} pages` };
}

/**
 * Creates the OSV vulnerability source. Errors, non-2xx answers, malformed
 * JSON and time-outs yield `{status: "unavailable"}` and a warn log line;
 * nothing is cached here (see `cached.ts`).
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const osv = createOsvSource({ osvApiUrl: "https://api.osv.dev", timeoutMs: 4000 }, log);
 * const facts = await osv.query("requests", "2.30.0");
 * ```
 */
export function createOsvSource(
  settings: OsvSettings,
  log: Logger,
  { now = () => new Date(), health }: SourceOptions = {},
): VulnerabilitySource {
  return {
    async query(name: string, version: string | null): Promise<VulnerabilityFacts> {
      const result = await queryOsvRecords(
        settings.osvApiUrl,
        name,
        version,
        settings.timeoutMs,
      );
      if (!result.ok) {
        health?.failure("osv", result.detail);
        log.warn("vulnerability lookup unavailable", {
          package: name,
          version,
          detail: result.detail,
        });
        return { status: "unavailable", detail: result.detail };
      }
      health?.success("osv");
      return {
        status: "ok",
        vulnerabilities: toVulnerabilities(result.records, name),
        fetched_at: now().toISOString(),
      };
    },
  };
}
