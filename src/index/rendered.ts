/**
 * Rendered project pages, kept per decided page and format: a decided page
 * is reused while its inputs are unchanged (`service.ts`), so is its
 * rendering, with its ETag (a large page's rendering and its garbage cost
 * more than the rest of the request).
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { PageDecision } from "./decide_page.ts";
import { renderHtml, renderJson } from "./render.ts";

/**
 * A project page rendered once, with its strong ETag (the SHA-256 of its
 * UTF-8 bytes). Text, not bytes: the runtime's server writes a string body
 * straight from the string, while a byte body is copied per response
 * (docs/performance.md, "Third pass on the index page").
 */
export interface RenderedPage {
  body: string;
  etag: string;
}

/** The rendering of a decided page for a (normalised) name, as JSON or HTML. */
export type PageRenderer = (decided: PageDecision, name: string, json: boolean) => RenderedPage;

/**
 * Creates a renderer that renders each (decided page, name, format) once.
 *
 * @example
 * ```ts
 * declare const decided: import("./decide_page.ts").PageDecision;
 * const render = createPageRenderer();
 * render(decided, "requests", true) === render(decided, "requests", true); // true
 * ```
 */
export function createPageRenderer(): PageRenderer {
  const rendered = new WeakMap<PageDecision, Map<string, RenderedPage>>();
  return (decided, name, json) => {
    let forms = rendered.get(decided);
    if (!forms) rendered.set(decided, forms = new Map());
    const key = json ? `json\u0000${name}` : `html\u0000${name}`;
    let form = forms.get(key);
    if (form === undefined) {
      const body = json ? renderJson(decided.page, name) : renderHtml(decided.page, name);
      form = { body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
      forms.set(key, form);
    }
    return form;
  };
}
