/**
 * The upstream simple index as an adapter: project pages fetched with
 * PEP 691 content negotiation (JSON preferred, HTML read too), kept in the
 * configured cache and revalidated with `If-None-Match` / `If-Modified-Since`
 * once they are older than the freshness window; files fetched as streams.
 * Concurrent requests for one page share one upstream call. When upstream
 * fails and a cached copy exists, the cached copy is served.
 *
 * @module
 */
import type { Cache } from "../cache/types.ts";
import type { Logger } from "../log/logger.ts";
import { redact } from "../log/redact.ts";
import { pageFromHtml, pageFromJson, type ProjectPage, SIMPLE_JSON } from "./page.ts";

/** A project page from upstream, or why there is none. */
export type UpstreamPage =
  | { status: "ok"; page: ProjectPage }
  | { status: "not-found" }
  | { status: "unavailable"; detail: string };

/** The upstream index. */
export interface UpstreamIndex {
  /** Never throws. */
  project(name: string): Promise<UpstreamPage>;
  /** Fetches a file (or its `.metadata`); the caller streams the body. Throws on network errors. */
  file(url: string): Promise<Response>;
}

/** Options of {@link createUpstreamIndex}. */
export interface UpstreamIndexOptions {
  /** The upstream simple index, with a trailing slash. */
  upstreamUrl: string;
  freshSeconds: number;
  cache: Cache;
  log: Logger;
  /** Per page request (body included) and until a file's headers arrive. Default 15 s. */
  timeoutMs?: number;
  /** Clock in ms; default `Date.now`. */
  now?: () => number;
}

/** What the cache keeps for one page. */
interface CachedPage {
  /** `null` = upstream answered 404. */
  page: ProjectPage | null;
  etag: string | null;
  lastModified: string | null;
  checkedAt: number;
}

/** Cached pages live this long; revalidation renews them. */
const KEEP_SECONDS = 7 * 86_400;

const ACCEPT = `${SIMPLE_JSON}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01`;

/**
 * Creates the upstream adapter.
 *
 * @example
 * ```ts
 * import { createMemoryCache } from "../cache/memory.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const upstream = createUpstreamIndex({
 *   upstreamUrl: "https://pypi.org/simple/", freshSeconds: 60, cache: createMemoryCache(), log,
 * });
 * const answer = await upstream.project("requests");
 * ```
 */
export function createUpstreamIndex(options: UpstreamIndexOptions): UpstreamIndex {
  const { cache, log } = options;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const inFlight = new Map<string, Promise<UpstreamPage>>();

  const answerOf = (entry: CachedPage): UpstreamPage =>
    entry.page ? { status: "ok", page: entry.page } : { status: "not-found" };

  const keyOf = (name: string) => `index:page:${options.upstreamUrl}${name}`;
  const fresh = (cached: CachedPage) => now() - cached.checkedAt < options.freshSeconds * 1000;

  async function refresh(name: string): Promise<UpstreamPage> {
    const key = keyOf(name);
    const cached = await cache.get<CachedPage>(key);
    if (cached && fresh(cached)) return answerOf(cached);
    const url = `${options.upstreamUrl}${name}/`;
    const headers: Record<string, string> = { accept: ACCEPT };
    if (cached?.etag) headers["if-none-match"] = cached.etag;
    if (cached?.lastModified) headers["if-modified-since"] = cached.lastModified;
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      if (response.status === 304 && cached) {
        await response.body?.cancel();
        await cache.set(key, { ...cached, checkedAt: now() }, KEEP_SECONDS);
        return answerOf(cached);
      }
      if (response.status === 404) {
        await response.body?.cancel();
        const entry: CachedPage = { page: null, etag: null, lastModified: null, checkedAt: now() };
        await cache.set(key, entry, KEEP_SECONDS);
        return { status: "not-found" };
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`answered HTTP ${response.status}`);
      }
      const page = await parse(response, name, response.url || url);
      const entry: CachedPage = {
        page,
        etag: response.headers.get("etag"),
        lastModified: response.headers.get("last-modified"),
        checkedAt: now(),
      };
      await cache.set(key, entry, KEEP_SECONDS);
      return { status: "ok", page };
    } catch (error) {
      const detail = `GET ${redact(url)} ${(error as Error).message}`;
      if (cached) {
        log.warn("upstream index unavailable; serving the cached page", { detail });
        return answerOf(cached);
      }
      log.warn("upstream index unavailable", { detail });
      return { status: "unavailable", detail };
    }
  }

  return {
    async project(name) {
      // A fresh cached page needs no fetch, so no place among the fetches in flight.
      const cached = await cache.get<CachedPage>(keyOf(name));
      if (cached && fresh(cached)) return answerOf(cached);
      let pending = inFlight.get(name);
      if (!pending) {
        pending = refresh(name).finally(() => inFlight.delete(name));
        inFlight.set(name, pending);
      }
      return pending;
    },
    async file(url) {
      // The time limit covers the answer's headers only: a large wheel may
      // take longer than any page to stream, and the client's pace sets that.
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new DOMException("timed out", "TimeoutError")),
        timeoutMs,
      );
      try {
        return await fetch(url, { signal: controller.signal });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

async function parse(response: Response, name: string, url: string): Promise<ProjectPage> {
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (type.includes("json")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error("answered malformed JSON");
    }
    const page = pageFromJson(json, url);
    if (!page) throw new Error("answered JSON that is not a PEP 691 project page");
    return page;
  }
  return pageFromHtml(text, name, url);
}
