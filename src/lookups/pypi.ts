/**
 * License lookups against the PyPI JSON API (SPEC §6.3):
 * `GET {PYPI_URL}/pypi/{name}/json` or `/pypi/{name}/{version}/json`.
 *
 * Decisions (docs/lookups.md): a project or release PyPI does not know (404)
 * is an ordinary answer, `UNKNOWN` with `license_raw: null`; a versioned
 * lookup also asks the project endpoint, concurrently, so `latest_version` is
 * the project's latest release (null when that second call fails).
 *
 * @module
 */
import { z } from "zod";
import type { LicenseFacts } from "../core/types.ts";
import type { Logger } from "../log/logger.ts";
import type { Settings } from "../config/settings.ts";
import type { LicenseSource } from "./types.ts";
import { fetchJson, type FetchResult } from "./http.ts";
import { joinUrl } from "./osv.ts";
import { normalizeLicense, UNKNOWN_LICENSE } from "./license_normalize.ts";
import type { UpstreamHealth } from "./upstream_health.ts";

const fileSchema = z.object({
  upload_time_iso_8601: z.string().nullish(),
  upload_time: z.string().nullish(),
});

const pypiResponseSchema = z.object({
  info: z.object({
    version: z.string(),
    license: z.string().nullish(),
    license_expression: z.string().nullish(),
    classifiers: z.array(z.string()).nullish(),
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

/** Settings the PyPI adapter reads. */
export type PypiSettings = Pick<Settings, "PYPI_URL" | "LOOKUP_TIMEOUT_MS">;

/** Optional collaborators of the PyPI source. */
export interface PypiSourceOptions {
  /** Clock of `fetched_at`; default the system clock. */
  now?: () => Date;
  /** Told about every answer and failure, for `/health`. */
  health?: UpstreamHealth;
}

/**
 * Creates the PyPI license source. Errors, non-2xx answers other than 404,
 * malformed JSON and time-outs yield `{status: "unavailable"}` and a warn log line.
 *
 * @example
 * ```ts
 * import { loadSettings } from "../config/settings.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const pypi = createPypiSource(loadSettings(Deno.env.toObject()), log);
 * const facts = await pypi.lookup("requests", null); // { status: "ok", license: "Apache-2.0", … }
 * ```
 */
export function createPypiSource(
  settings: PypiSettings,
  log: Logger,
  options: PypiSourceOptions = {},
): LicenseSource {
  const now = options.now ?? (() => new Date());
  const get = async (path: string): Promise<FetchResult<PypiResponse>> => {
    const result = await fetchJson(joinUrl(settings.PYPI_URL, path), pypiResponseSchema, {
      timeoutMs: settings.LOOKUP_TIMEOUT_MS,
    });
    // A 404 is an answer: the index is up.
    if (result.ok || result.notFound) options.health?.success("pypi");
    else options.health?.failure("pypi", result.detail);
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
            ? notOnIndex(null, now())
            : unavailable(name, version, result.detail);
        }
        return {
          status: "ok",
          ...normalizeLicense(result.data.info),
          latest_version: result.data.info.version,
          released_at: releaseUploadTime(result.data.urls),
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
        return release.notFound
          ? notOnIndex(latestVersion, now())
          : unavailable(name, version, release.detail);
      }
      const fromProject = latest.ok ? latest.data.releases?.[version] : undefined;
      return {
        status: "ok",
        ...normalizeLicense(release.data.info),
        latest_version: latestVersion,
        released_at: releaseUploadTime(release.data.urls) ?? releaseUploadTime(fromProject),
        fetched_at: now().toISOString(),
      };
    },
  };
}

function notOnIndex(latestVersion: string | null, fetchedAt: Date): LicenseFacts {
  return {
    status: "ok",
    license: UNKNOWN_LICENSE,
    license_raw: null,
    latest_version: latestVersion,
    released_at: null,
    fetched_at: fetchedAt.toISOString(),
  };
}
