/**
 * What the client answers without the server: the cached registry snapshot
 * (kept fresh by revalidating it, `offline_registry.ts`) decides what it
 * alone decides, the rest is allowed unchecked under fail-open.
 *
 * @module
 */
import { DEFAULT_CLIENT_TIMEOUT_MS } from "../../src/api/evaluate_limits.ts";
import { API_PATHS, apiPath } from "../../src/api/paths.ts";
import { type ApiClientOptions, type PackageQuery, requestHeaders } from "./api_call.ts";
import type { EvaluationResult } from "./api_schemas.ts";
import { ServerUnreachable } from "./exit_codes.ts";
import { lazyImport } from "./lazy_import.ts";
import { cacheIsFresh } from "./registry_cache_path.ts";
import type { Transport } from "./transport.ts";

/** `offline_registry.ts`, loaded only to refresh the cached registry or to decide offline. */
function offlineRegistry() {
  return lazyImport<typeof import("./offline_registry.ts")>(
    new URL("./offline_registry.ts", import.meta.url),
  );
}

/**
 * Revalidates the cached registry snapshot when it is older than a few
 * minutes (`If-None-Match`; 304 only touches the file). Never fails: a
 * refresh that does not work keeps the old snapshot.
 */
export async function refreshRegistryCache(send: Transport, o: ApiClientOptions): Promise<void> {
  const path = o.registryCache;
  if (!path) return;
  if (cacheIsFresh(path)) return;
  try {
    const offline = await offlineRegistry();
    const cached = offline.readCachedRegistry(path);
    const headers: Record<string, string> = requestHeaders(o, false);
    if (cached?.etag) headers["if-none-match"] = cached.etag;
    const answer = await send(new URL(o.serverUrl + apiPath(API_PATHS.registry)), {
      method: "GET",
      headers,
      signal: AbortSignal.timeout(o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS),
    });
    if (answer.status === 304 && cached) return offline.touchCachedRegistry(path);
    if (answer.status !== 200) return;
    const etag = Object.entries(answer.headers).find(([k]) => k.toLowerCase() === "etag")?.[1];
    const doc = offline.readRegistryDocument(
      JSON.parse(answer.text),
      etag ?? null,
      new Date().toISOString(),
    );
    if (doc) offline.writeCachedRegistry(path, doc);
  } catch {
    // unreachable, not JSON, a read-only cache directory: keep what there is
  }
}

/**
 * A transport failure: the cached registry decides what it alone decides
 * (denials, marked offline); the rest is allowed unchecked under fail-open,
 * else the failure stands, naming any offline denials.
 */
export async function unreachableResults(
  o: ApiClientOptions,
  error: unknown,
  packages: PackageQuery[],
): Promise<EvaluationResult[]> {
  if (!(error instanceof ServerUnreachable) || !o.registryCache) {
    return failOpenResults(o, error, packages);
  }
  const offline = await offlineRegistry();
  const cached = offline.readCachedRegistry(o.registryCache);
  if (cached === null) return failOpenResults(o, error, packages);
  const why = `the policy server at ${o.serverUrl} is unreachable`;
  const decided = packages.map((p) => offline.offlineVerdict(cached, p, why));
  if (decided.every((d) => d !== null)) return decided as EvaluationResult[];
  if (!o.failOpen) {
    const denied = decided.filter((d): d is EvaluationResult => d !== null);
    throw denied.length
      ? new ServerUnreachable(
        o.serverUrl,
        `${error.detail}; decided offline from registry version ${cached.version}: ` +
          denied.map((d) => `${d.package} is DENIED (${d.denial_category})`).join(", "),
      )
      : error;
  }
  const unchecked = failOpenResults(o, error, packages);
  return decided.map((d, i) => d ?? unchecked[i]);
}

/** Under fail-open, a synthetic ALLOWED result per package for a transport failure; else the error stands. */
export function failOpenResults(
  o: ApiClientOptions,
  error: unknown,
  packages: PackageQuery[],
): EvaluationResult[] {
  if (!(error instanceof ServerUnreachable) || !o.failOpen) throw error;
  return packages.map((p) => ({
    package: p.package,
    version: p.version ?? null,
    verdict: "ALLOWED" as const,
    reason: `not evaluated: ${error.message} (fail_open)`,
    denial_category: null,
    registry_status: null,
    replacement: null,
    license: null,
    cves: [],
    max_cvss: null,
    transport_error: true,
  }));
}
