/**
 * The release list of a project on the package index (`GET
 * {PYPI_URL}/pypi/{name}/json`, its `releases` member), with PEP 592 yanked
 * flags, for judging a range at the release an installer would pick
 * (`evaluation/resolve_range.ts`). Kept apart from the license lookup
 * (`pypi.ts`); answers with data are cached like the other lookups.
 *
 * @module
 */
import { z } from "zod";
import { normalizeName } from "../core/names.ts";
import type { Cache } from "../cache/types.ts";
import type { Release } from "../evaluation/resolve_range.ts";
import { fetchJson } from "./http.ts";
import { joinUrl } from "./osv.ts";

const releasesSchema = z.object({
  releases: z.record(z.string(), z.array(z.object({ yanked: z.boolean().nullish() })).nullish()),
});

/** The releases of a project, or why they could not be had. */
export type ReleaseList =
  | { status: "ok"; releases: Release[] }
  | { status: "unavailable"; detail: string };

/** Looks up the release list of a project; never throws. */
export interface ReleaseSource {
  releases(name: string): Promise<ReleaseList>;
}

/** Where and how long the release source asks. */
export interface ReleaseSourceOptions {
  /** Base URL of the index JSON API (`PYPI_URL`). */
  baseUrl: string;
  timeoutMs: number;
  /** Cache of `ok` answers and their time-to-live; none when absent. */
  cache?: { store: Cache; ttlSeconds: number };
}

/** Cache key of a release list. */
export function pypiReleasesKey(name: string): string {
  return `policyd:v2:pypi:releases:${normalizeName(name)}`;
}

/**
 * Creates the release-list source. A release whose files are all yanked is
 * yanked; a release without files is kept (older projects list some so).
 */
export function createReleaseSource(options: ReleaseSourceOptions): ReleaseSource {
  return {
    async releases(name) {
      const key = pypiReleasesKey(name);
      const hit = await options.cache?.store.get<Release[]>(key);
      if (hit !== undefined) return { status: "ok", releases: hit };
      const result = await fetchJson(
        joinUrl(options.baseUrl, `/pypi/${encodeURIComponent(name)}/json`),
        releasesSchema,
        { timeoutMs: options.timeoutMs },
      );
      if (!result.ok) return { status: "unavailable", detail: result.detail };
      const releases = Object.entries(result.data.releases).map(([version, files]) => ({
        version,
        yanked: (files ?? []).length > 0 && (files ?? []).every((f) => f.yanked === true),
      }));
      await options.cache?.store.set(key, releases, options.cache.ttlSeconds);
      return { status: "ok", releases };
    },
  };
}
