/**
 * Serving the compiled document from any router, with a strong ETag and
 * conditional requests. The library depends on no web framework: a router is
 * reached through a small adapter (`MountGet`), and a Hono app (any version)
 * is accepted as is.
 *
 * @module
 */

/** The document to serve, or a loader called per request (`undefined` → 404). */
export type DocumentSource = string | (() => string | undefined | Promise<string | undefined>);

/** Options of `serveWorkflows()`. */
export interface ServeWorkflowsOptions {
  /** Route of the Markdown document (default `/workflows.md`). */
  path?: string;
  markdown: DocumentSource;
  /** The JSON twin; served at `jsonPath` when given. */
  json?: DocumentSource;
  /** Route of the JSON twin (default: `path` with `.md` replaced by `.json`). */
  jsonPath?: string;
}

/**
 * A strong ETag for a document: the base64url SHA-256 of its UTF-8 bytes.
 *
 * @example
 * ```ts
 * import { documentEtag } from "./serve.ts";
 * await documentEtag("# API Workflows\n"); // '"sha256-…"'
 * ```
 */
export async function documentEtag(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  const base64 = btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
  return `"sha256-${base64}"`;
}

/**
 * Builds the response for a document request: 200 with the body, `ETag` and
 * `Cache-Control: no-cache` (clients revalidate), or 304 without a body when
 * `If-None-Match` lists the current ETag (or `*`), or 404 when the source has
 * no document.
 *
 * @example
 * ```ts
 * import { documentResponse } from "./serve.ts";
 * const res = await documentResponse(new Request("http://x/workflows.md"), "# Doc\n", "text/markdown; charset=utf-8");
 * res.headers.get("etag"); // '"sha256-…"'
 * ```
 */
export async function documentResponse(
  request: Request,
  source: DocumentSource,
  contentType: string,
): Promise<Response> {
  const text = typeof source === "string" ? source : await source();
  if (text === undefined) {
    return new Response("Not Found\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const etag = await documentEtag(text);
  const headers = { etag, "cache-control": "no-cache", "content-type": contentType };
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers: { etag, "cache-control": "no-cache" } });
  }
  return new Response(request.method === "HEAD" ? null : text, { status: 200, headers });
}

// If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored.
function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").map((tag) => tag.trim().replace(/^W\//, "")).some((tag) =>
    tag === "*" || tag === etag
  );
}

/** A request handler in the library's own, framework-neutral terms. */
export type DocumentHandler = (request: Request) => Promise<Response>;

/**
 * The adapter between a router and the library: registers `handler` for
 * `GET <path>` (and `HEAD`, where the router derives it). Write one line for
 * any router; `honoMount()` is the one for Hono.
 */
export type MountGet = (path: string, handler: DocumentHandler) => void;

/**
 * The part of a Hono app `serveWorkflows()` uses, typed structurally so the
 * app of any Hono version (and any `Env`/`Schema`/base path) is accepted.
 */
export interface HonoLike {
  /** Hono's `app.get(path, handler)`. */
  get(
    path: string,
    handler: (c: { req: { raw: Request } }) => Response | Promise<Response>,
  ): unknown;
}

/**
 * The Hono adapter: mounts handlers with `app.get(path, (c) => handler(c.req.raw))`.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { honoMount, serveWorkflows } from "./serve.ts";
 * const app = new Hono();
 * serveWorkflows(honoMount(app), { markdown: "# API Workflows\n" });
 * ```
 */
export function honoMount(app: HonoLike): MountGet {
  return (path, handler) => {
    app.get(path, (c) => handler(c.req.raw));
  };
}

/**
 * Mounts the compiled document on a router: `GET <path>` serves the Markdown
 * as `text/markdown; charset=utf-8` and, when `json` is given, `GET <jsonPath>`
 * serves the twin as `application/json`, both with ETag/304 support. `router`
 * is a Hono app (any version) or a `MountGet` adapter for any other router.
 * Returns `router` for chaining.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { fileSource, serveWorkflows } from "./serve.ts";
 * const app = serveWorkflows(new Hono(), {
 *   path: "/api/v1/workflows.md",
 *   markdown: fileSource("workflows.md"),
 *   json: fileSource("workflows.json"),
 * });
 * const res = await app.request("/api/v1/workflows.md");
 * ```
 */
export function serveWorkflows<R extends HonoLike | MountGet>(
  router: R,
  options: ServeWorkflowsOptions,
): R {
  const mount = typeof router === "function" ? router as MountGet : honoMount(router as HonoLike);
  const path = options.path ?? "/workflows.md";
  mount(
    path,
    (request) => documentResponse(request, options.markdown, "text/markdown; charset=utf-8"),
  );
  const json = options.json;
  if (json !== undefined) {
    const jsonPath = options.jsonPath ?? path.replace(/\.md$/, "") + ".json";
    mount(jsonPath, (request) => documentResponse(request, json, "application/json"));
  }
  return router;
}

/**
 * A `DocumentSource` that reads a file on every request (so a regenerated
 * document is served without a restart) and yields 404 while it is missing.
 *
 * @example
 * ```ts ignore
 * import { fileSource } from "./serve.ts";
 * const markdown = fileSource("workflows.md");
 * ```
 */
export function fileSource(path: string | URL): DocumentSource {
  return async () => {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  };
}
