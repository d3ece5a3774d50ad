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

const pypiResponseSchema = z.object({
  info: z.object({
    version: z.string(),
    license: z.string().nullish(),
    license_expression: z.string().nullish(),
    classifiers: z.array(z.string()).nullish(),
  }),
});

type PypiResponse = z.infer<typeof pypiResponseSchema>;

/** Settings the PyPI adapter reads. */
export type PypiSettings = Pick<Settings, "PYPI_URL" | "LOOKUP_TIMEOUT_MS">;

/**
 * Creates the PyPI license source. Errors, non-2xx answers other than 404,
 * malformed JSON and time-outs yield `{status: "unavailable"}` and a warn log line.
 *
 * @example
 * ```ts
 * const pypi = createPypiSource(loadSettings(Deno.env.toObject()), log);
 * const facts = await pypi.lookup("requests", null); // { status: "ok", license: "Apache-2.0", … }
 * ```
 */
export function createPypiSource(settings: PypiSettings, log: Logger): LicenseSource {
  const get = (path: string): Promise<FetchResult<PypiResponse>> =>
    fetchJson(joinUrl(settings.PYPI_URL, path), pypiResponseSchema, {
      timeoutMs: settings.LOOKUP_TIMEOUT_MS,
    });

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
          return result.notFound ? notOnIndex(null) : unavailable(name, version, result.detail);
        }
        return {
          status: "ok",
          ...normalizeLicense(result.data.info),
          latest_version: result.data.info.version,
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
          ? notOnIndex(latestVersion)
          : unavailable(name, version, release.detail);
      }
      return {
        status: "ok",
        ...normalizeLicense(release.data.info),
        latest_version: latestVersion,
      };
    },
  };
}

function notOnIndex(latestVersion: string | null): LicenseFacts {
  return {
    status: "ok",
    license: UNKNOWN_LICENSE,
    license_raw: null,
    latest_version: latestVersion,
  };
}
