/**
 * The product version, read from `deno.json` through the module graph so
 * compiled binaries carry it.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/** policyd's version. */
export const VERSION: string = denoJson.version;
