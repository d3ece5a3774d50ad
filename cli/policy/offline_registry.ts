/**
 * Registry rules that hold offline (issue 27 point 6): the client keeps the
 * last registry snapshot the server sent (`GET /api/v1/registry`, revalidated
 * with its ETag at most every {@link REFRESH_AFTER_MS}) in a cache file, and
 * when the server cannot be reached decides from it what the registry alone
 * decides: a banned or deprecated package, a version (or a range's bound)
 * outside a version constraint. Everything else needs live data and is left
 * to `fail_open`.
 *
 * Loaded only when the cache is refreshed or the server is unreachable; no
 * zod (the answer is read defensively by hand).
 *
 * @module
 */

import { compare, valid } from "@renovatebot/pep440";
import type { z } from "zod";
import type { PackageRuleSchema } from "../../src/api/registry.ts";
import type { EvaluationResult } from "./api_client.ts";
import { parentDir } from "./os_path.ts";

export { cacheIsFresh, REFRESH_AFTER_MS, registryCachePath } from "./registry_cache_path.ts";

/** One registry rule, as the server sends it (status read as any string, for newer servers). */
export type OfflineRule = Omit<z.infer<typeof PackageRuleSchema>, "status"> & { status: string };

/** The cache file's content. */
export interface CachedRegistry {
  version: string;
  etag: string | null;
  /** When the server last sent or confirmed it (ISO 8601). */
  fetched_at: string;
  packages: OfflineRule[];
}

const text = (v: unknown): string | undefined => typeof v === "string" && v.trim() ? v : undefined;

/** The rules of a `GET /registry` answer (or a cache file), read defensively; null when unusable. */
export function readRegistryDocument(
  body: unknown,
  etag: string | null,
  fetchedAt: string,
): CachedRegistry | null {
  if (typeof body !== "object" || body === null) return null;
  const doc = body as Record<string, unknown>;
  const version = text(doc.version);
  if (!version || !Array.isArray(doc.packages)) return null;
  const packages: OfflineRule[] = [];
  for (const item of doc.packages) {
    if (typeof item !== "object" || item === null) continue;
    const r = item as Record<string, unknown>;
    const name = text(r.name);
    const status = text(r.status);
    if (!name || !status) continue;
    packages.push({
      name,
      status,
      reason: text(r.reason),
      replacement: text(r.replacement),
      min_version: text(r.min_version),
      max_version: text(r.max_version),
    });
  }
  return {
    version,
    etag: text(doc.etag) ?? etag,
    fetched_at: text(doc.fetched_at) ?? fetchedAt,
    packages,
  };
}

/** The cached snapshot at `path`, or null when there is none or it is unreadable. */
export function readCachedRegistry(path: string): CachedRegistry | null {
  try {
    return readRegistryDocument(JSON.parse(Deno.readTextFileSync(path)), null, "");
  } catch {
    return null;
  }
}

/** Writes the snapshot atomically (a temporary file renamed over the old one). */
export function writeCachedRegistry(path: string, registry: CachedRegistry): void {
  Deno.mkdirSync(parentDir(path), { recursive: true });
  const temp = `${path}.${Deno.pid}.tmp`;
  Deno.writeTextFileSync(temp, JSON.stringify(registry) + "\n");
  Deno.renameSync(temp, path);
}

/** Marks the cache as confirmed now (a 304 answer). */
export function touchCachedRegistry(path: string): void {
  const now = new Date();
  Deno.utimeSync(path, now, now);
}

interface Clause {
  operator: string;
  version: string;
}

/** `name` and specifier clauses of a query's package (`urllib3`, `urllib3<2,>=1.25`). */
function splitQuery(pkg: string): { name: string; clauses: Clause[] } {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$/.exec(pkg);
  if (!m) return { name: pkg, clauses: [] };
  const clauses = m[2].split(";")[0].split(",").map((part) => {
    const c = /^\s*(===|==|>=|<=|~=|!=|>|<)\s*([^\s,]+)\s*$/.exec(part);
    return c ? { operator: c[1], version: c[2] } : null;
  }).filter((c): c is Clause =>
    c !== null && (c.version.includes("*") || valid(c.version) !== null)
  );
  return { name: m[1].toLowerCase().replace(/[-_.]+/g, "-"), clauses };
}

/** Why `version` (or the range's bounds) falls outside a rule's constraint, or null. */
function outside(rule: OfflineRule, version: string | null, clauses: Clause[]): {
  version: string | null;
  text: string;
} | null {
  const min = rule.min_version && valid(rule.min_version) ? rule.min_version : null;
  const max = rule.max_version && valid(rule.max_version) ? rule.max_version : null;
  if (version !== null && valid(version)) {
    if (min && compare(version, min) < 0) {
      return { version, text: `version ${version} is below the minimum ${min}` };
    }
    if (max && compare(version, max) > 0) {
      return { version, text: `version ${version} is above the maximum ${max}` };
    }
    return null;
  }
  // A range, judged at its bounds: every version it admits is below the minimum or above the maximum.
  for (const { operator, version: bound } of clauses) {
    if (bound.includes("*")) continue;
    const upTo = operator === "<" ? 0 : ["<=", "==", "==="].includes(operator) ? -1 : null;
    if (min && upTo !== null && compare(bound, min) <= upTo) {
      return {
        version: bound,
        text: `every version ${operator}${bound} is below the minimum ${min}`,
      };
    }
    const from = operator === ">" ? 0 : [">=", "==", "===", "~="].includes(operator) ? 1 : null;
    if (max && from !== null && compare(bound, max) >= from) {
      return {
        version: bound,
        text: `every version ${operator}${bound} is above the maximum ${max}`,
      };
    }
  }
  return null;
}

/**
 * The registry's own verdict on a query from the cached snapshot: a DENIED
 * result for a banned or deprecated package or a version outside its
 * constraint, saying it was decided offline; null when the decision needs
 * live data.
 */
export function offlineVerdict(
  registry: CachedRegistry,
  query: { package: string; version?: string | null },
  why: string,
): EvaluationResult | null {
  const { name, clauses } = splitQuery(query.package);
  const rule = registry.packages.find((r) => r.name === name);
  if (!rule) return null;
  const version = query.version ?? null;
  const note = ` (decided offline from registry version ${registry.version}: ${why})`;
  const ruleWhy = rule.reason ? `: ${rule.reason}` : "";
  const instead = rule.replacement ? `; use ${rule.replacement} instead` : "";
  let category: string;
  let reason: string;
  let reported = version;
  if (rule.status === "banned") {
    category = "DENIAL_BANNED";
    reason = `${name} is banned by the registry${ruleWhy}${instead}`;
  } else if (rule.status === "deprecated") {
    category = "DENIAL_DEPRECATED";
    reason = `${name} is deprecated${ruleWhy}${instead}`;
  } else if (rule.status === "version-constrained") {
    const out = outside(rule, version, clauses);
    if (!out) return null;
    category = "DENIAL_VERSION_CONSTRAINT";
    reported = out.version;
    reason = `${name}${
      reported ? `==${reported}` : ""
    } is outside the allowed range (${out.text})${ruleWhy}`;
  } else return null;
  return {
    package: name,
    version: reported,
    verdict: "DENIED",
    reason: reason + note,
    denial_category: category as EvaluationResult["denial_category"],
    registry_status: rule.status as EvaluationResult["registry_status"],
    replacement: rule.replacement ?? null,
    license: null,
    cves: [],
    max_cvss: null,
    offline_registry_version: registry.version,
  };
}
