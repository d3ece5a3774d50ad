/**
 * The popular-project list of the typosquat rule (SPEC §17.2): a copy of the
 * most downloaded PyPI projects ships in `data/top_pypi_packages.json`
 * (hugovk/top-pypi-packages, names only, provenance in the file) and is
 * replaced by a fresh download on the scanner's schedule when
 * `POPULAR_PACKAGES_URL` is set. A failed refresh keeps the list in use.
 *
 * @module
 */
import { z } from "zod";
import shipped from "./data/top_pypi_packages.json" with { type: "json" };
import { isValidName, normalizeName } from "../core/names.ts";
import { createPopularIndex, type PopularIndex } from "../core/popular_index.ts";
import type { Logger } from "../log/logger.ts";
import { fetchJson } from "./http.ts";
import type { PopularOptions } from "./popular_settings.ts";

/** The popular-project index in use, and its refresh. */
export interface PopularNames {
  /** The current index (built from the shipped list on first use). */
  current(): PopularIndex;
  /** Downloads the list again; true when the index was replaced. */
  refresh(): Promise<boolean>;
}

/** The published format: `{rows: [{project, download_count}]}`, most downloaded first. */
const publishedSchema = z.object({
  rows: z.array(z.object({ project: z.string().min(1) })).min(100),
});

/** Fewest names a download must hold to replace the list (guards against a truncated file). */
const MIN_NAMES = 1000;

/**
 * The index of the shipped list, built on first use and shared by every
 * source in the process: it is immutable, and building it costs about
 * 0.2 s of CPU that each test server would otherwise pay again.
 */
let shippedIndex: PopularIndex | null = null;

/** The names of the shipped list (PEP 503, most popular first). */
export function shippedPopularNames(): readonly string[] {
  return shipped.projects;
}

/**
 * Creates the popular-project source.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const popular = createPopularNames({ url: null }, log);
 * popular.current().lookalike("reqeusts")?.similar_to; // "requests"
 * ```
 */
export function createPopularNames(
  options: PopularOptions & { timeoutMs?: number },
  log: Logger,
): PopularNames {
  let index: PopularIndex | null = null;
  return {
    current: () => index ?? (shippedIndex ??= createPopularIndex(shipped.projects)),
    async refresh() {
      if (options.url === null) return false;
      const result = await fetchJson(options.url, publishedSchema, {
        timeoutMs: options.timeoutMs ?? 10_000,
      });
      if (!result.ok) {
        log.warn("popular-project list refresh failed; keeping the list in use", {
          url: options.url,
          detail: result.detail,
        });
        return false;
      }
      // Names are upstream text that reaches reasons ("did you mean …"): valid names only.
      const names = result.data.rows.map((r) => r.project).filter(isValidName).map(normalizeName);
      if (names.length < MIN_NAMES) {
        log.warn("popular-project list too short; keeping the list in use", {
          url: options.url,
          names: names.length,
        });
        return false;
      }
      index = createPopularIndex(names);
      log.info("popular-project list refreshed", { url: options.url, names: names.length });
      return true;
    },
  };
}
