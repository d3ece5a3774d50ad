/**
 * License lookups against the PyPI JSON API (SPEC §6.3):
 * `GET {PYPI_URL}/pypi/{name}/json` or `/pypi/{name}/{version}/json`.
 *
 * Decisions (docs/lookups.md): a project or release PyPI does not know (404)
 * is an ordinary answer, `UNKNOWN` with `license_raw: null` and `not_found`
 * saying which (the core denies it, SPEC §17.2); the project document's
 * `releases` give the first upload and the release count, the release
 * document the yank (PEP 592); a versioned
 * lookup also asks the project endpoint, concurrently, so `latest_version` is
 * the project's latest release (null when that second call fails).
 *
 * @module
 */
import { z } from "zod";
import type { LicenseFacts } from "../core/types.ts";
import type { Logger } from "../log/logger.ts";
import type { LicenseSource, SourceOptions } from "./types.ts";
import type { LookupOptions } from "./settings.ts";
import { fetchJson, type FetchResult } from "./http.ts";
import { joinUrl } from "./osv.ts";
import { normalizeLicense, UNKNOWN_LICENSE } from "./license_normalize.ts";

const fileSchema = z.object({
  upload_time_iso_8601: z.string().nullish(),
  upload_time: z.string().nullish(),
  yanked: z.boolean().nullish(),
  yanked_reason: z.string().nullish(),
});

const pypiResponseSchema = z.object({
  info: z.object({
    version: z.string(),
    license: z.string().nullish(),
    license_expression: z.string().nullish(),
    classifiers: z.array(z.string()).nullish(),
    yanked: z.boolean().nullish(),
    yanked_reason: z.string().nullish(),
  }),
  urls: z.array(fileSchema).nullish(),
  releases: z.record(z.string(), z.array(fileSchema).nullish()).nullish(),
});

type PypiFile = z.infer<typeof fileSchema>;

/**
 * The upload time of a release: the earliest of its files
 * (`upload_time_iso_8601`, else the older `upload_time`, which is UTC);
 * null when the release has no files.
 *
 * @example
 * ```ts
 * import { releaseUploadTime } from "./pypi.ts";
 * releaseUploadTime([{ upload_time: "2017-08-15T13:23:43" }]); // "2017-08-15T13:23:43.000Z"
 * ```
 */
export function releaseUploadTime(files: readonly PypiFile[] | null | undefined): string | null {
  const times = (files ?? [])
    .map((f) => f.upload_time_iso_8601 ?? (f.upload_time ? `${f.upload_time}Z` : null))
    .map((t) => (t ? Date.parse(t.replace(/Z+$/, "Z")) : NaN))
    .filter((t) => !Number.isNaN(t));
  return times.length ? new Date(Math.min(...times)).toISOString() : null;
}

type PypiResponse = z.infer<typeof pypiResponseSchema>;

/** What the project document says about the project's history (new projects, look-alikes). */
export interface ProjectHistory {
  /** Upload time of the earliest file of any release; null when no release has files. */
  first_released_at: string | null;
  /** Releases with at least one file. */
  release_count: number;
}

/**
 * The first upload and the release count of a project, from the `releases`
 * map of its project document; null when the document has no such map.
 *
 * @example
 * ```ts
 * import { projectHistory } from "./pypi.ts";
 * projectHistory({ "1.0": [{ upload_time: "2020-01-01T00:00:00" }], "1.1": [] });
 * // { first_released_at: "2020-01-01T00:00:00.000Z", release_count: 1 }
 * ```
 */
export function projectHistory(
  releases: Record<string, readonly PypiFile[] | null | undefined> | null | undefined,
): ProjectHistory | null {
  if (!releases) return null;
  const withFiles = Object.values(releases).filter((files) => (files ?? []).length > 0);
  return {
    first_released_at: releaseUploadTime(withFiles.flat() as PypiFile[]),
    release_count: withFiles.length,
  };
}

/** Whether a release is yanked (PEP 592), and why: from `info`, else from its files. */
function yankOf(data: PypiResponse): { yanked?: boolean; yanked_reason?: string | null } {
  const files = data.urls ?? [];
  const yanked = data.info.yanked ?? (files.length > 0 && files.every((f) => f.yanked === true));
  if (!yanked) return {};
  const reason = data.info.yanked_reason ?? files.find((f) => f.yanked_reason)?.yanked_reason;
  return { yanked: true, yanked_reason: reason || null };
}

/** The `lookups` options the PyPI adapter reads. */
export type PypiSettings = Pick<LookupOptions, "pypiUrl" | "timeoutMs">;

/**
 * Creates the PyPI license source. Errors, non-2xx answers other than 404,
 * malformed JSON and time-outs yield `{status: "unavailable"}` and a warn log line.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const pypi = createPypiSource({ pypiUrl: "https://pypi.org", timeoutMs: 4000 }, log);
 * const facts = await pypi.lookup("requests", null); // { status: "ok", license: "Apache-2.0", … }
 * ```
 */
export function createPypiSource(
  settings: PypiSettings,
  log: Logger,
  { now = () => new Date(), health }: SourceOptions = {},
): LicenseSource {
  const get = async (path: string): Promise<FetchResult<PypiResponse>> => {
    const result = await fetchJson(joinUrl(settings.pypiUrl, path), pypiResponseSchema, {
      timeoutMs: settings.timeoutMs,
    });
    // A 404 is an answer: the index is up.
    if (result.ok || result.notFound) health?.success("pypi");
    else health?.failure("pypi", result.detail);
    return result;
  };

  const unavailable = (name: string, version: string | null, detail: string): LicenseFacts => {
    log.warn("license lookup unavailable", { package: name, version, detail });
    return { status: "unavailable", detail };
  };

  return {
    async lookup(name: string, version: string | null): Promise<LicenseFacts> {
      const project = `/pypi/${encodeURIComponent(name)}`;
      if (version === null) {
        const result = await get(`${project}/json`);
        if (!result.ok) {
          return result.notFound
            ? notOnIndex("project", null, now())
            : unavailable(name, version, result.detail);
        }
        return {
          status: "ok",
          ...normalizeLicense(result.data.info),
          latest_version: result.data.info.version,
          released_at: releaseUploadTime(result.data.urls),
          ...projectHistory(result.data.releases),
          fetched_at: now().toISOString(),
        };
      }
      const [release, latest] = await Promise.all([
        get(`${project}/${encodeURIComponent(version)}/json`),
        get(`${project}/json`),
      ]);
      const latestVersion = latest.ok ? latest.data.info.version : null;
      if (!latest.ok && !latest.notFound) {
        log.warn("latest version lookup unavailable", { package: name, detail: latest.detail });
      }
      if (!release.ok) {
        if (!release.notFound) return unavailable(name, version, release.detail);
        if (latest.ok) return notOnIndex("release", latestVersion, now());
        // Both 404: no such project. A 404 beside an unreachable project document says nothing.
        return latest.notFound
          ? notOnIndex("project", null, now())
          : unavailable(name, version, latest.detail);
      }
      const fromProject = latest.ok ? latest.data.releases?.[version] : undefined;
      return {
        status: "ok",
        ...normalizeLicense(release.data.info),
        latest_version: latestVersion,
        released_at: releaseUploadTime(release.data.urls) ?? releaseUploadTime(fromProject),
        ...(latest.ok ? projectHistory(latest.data.releases) : {}),
        ...yankOf(release.data),
        fetched_at: now().toISOString(),
      };
    },
  };
}

function notOnIndex(
  what: "project" | "release",
  latestVersion: string | null,
  fetchedAt: Date,
): LicenseFacts {
  return {
    status: "ok",
    not_found: what,
    license: UNKNOWN_LICENSE,
    license_raw: null,
    latest_version: latestVersion,
    released_at: null,
    fetched_at: fetchedAt.toISOString(),
  };
}
