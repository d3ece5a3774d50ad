/**
 * The dashboards' static assets, imported as text so they are part of the
 * module graph: a `deno compile` binary serves them without the source tree.
 *
 * @module
 */
import appCss from "./app.css" with { type: "text" };
import workshopJs from "./workshop.js" with { type: "text" };
import workshopCoreJs from "./workshop_core.js" with { type: "text" };
import workshopRegistryJs from "./workshop_registry.js" with { type: "text" };
import workshopPendingJs from "./workshop_pending.js" with { type: "text" };
import workshopProposeJs from "./workshop_propose.js" with { type: "text" };
import workshopImportJs from "./workshop_import.js" with { type: "text" };
import appJs from "./app.js" with { type: "text" };
import reviewJs from "./review.js" with { type: "text" };

/** One static file served under `/static/`. */
export interface StaticAsset {
  body: string;
  contentType: string;
  /** Strong ETag derived from the content. */
  etag: string;
}

// FNV-1a, 32 bit: a cheap, synchronous content hash for ETags and cache busting.
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

function asset(body: string, contentType: string): StaticAsset {
  return { body, contentType, etag: `"${fnv1a(body)}"` };
}

/** Static files by name (the path below `/static/`). */
export const STATIC_ASSETS: ReadonlyMap<string, StaticAsset> = new Map([
  ["app.css", asset(appCss, "text/css; charset=utf-8")],
  ["workshop_core.js", asset(workshopCoreJs, "text/javascript; charset=utf-8")],
  ["workshop_registry.js", asset(workshopRegistryJs, "text/javascript; charset=utf-8")],
  ["workshop_pending.js", asset(workshopPendingJs, "text/javascript; charset=utf-8")],
  ["workshop_propose.js", asset(workshopProposeJs, "text/javascript; charset=utf-8")],
  ["workshop_import.js", asset(workshopImportJs, "text/javascript; charset=utf-8")],
  ["workshop.js", asset(workshopJs, "text/javascript; charset=utf-8")],
  ["app.js", asset(appJs, "text/javascript; charset=utf-8")],
  ["review.js", asset(reviewJs, "text/javascript; charset=utf-8")],
]);

/** The URL of a static asset with a content-hash query for cache busting. */
export function assetUrl(name: string): string {
  const found = STATIC_ASSETS.get(name);
  return found ? `/static/${name}?v=${found.etag.slice(1, -1)}` : `/static/${name}`;
}
