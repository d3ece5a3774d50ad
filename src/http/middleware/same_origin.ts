/**
 * Cross-site request forgery guard for state-changing requests (SPEC §16.2):
 * a request whose `Origin` is neither the server's own nor an allowed origin
 * is refused with 403. The server's own origin comes from configuration, not
 * from the request (issue 34): an `Origin` counts as own only when its host
 * is allow-listed (`allowed_hosts.ts`: loopback, the bind address,
 * `ALLOWED_HOSTS`) and names the host and port the request was sent to;
 * otherwise it must be listed in `ALLOWED_ORIGINS`. A body whose media type the route does not accept
 * is refused with 415. Browsers cannot send `application/json` cross-site
 * without a CORS preflight (which policyd never grants), so together the two
 * rules stop HTML forms and `no-cors` fetches. Clients without an `Origin`
 * header (the CLI, curl, GitHub's webhook deliveries) are not browsers and pass.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { API_ROUTES, fullPath } from "../../api/mod.ts";
import type { AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";
import { hostNameOf, requestHost } from "./allowed_hosts.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const YAML_TYPES = ["text/yaml", "application/yaml", "application/x-yaml", "text/x-yaml"];

/** Media types a state-changing route accepts: its contract's, else JSON only. */
export function acceptedMediaTypes(): Map<string, readonly string[]> {
  const byPath = new Map<string, readonly string[]>();
  for (const route of API_ROUTES) {
    if (route.method !== "post" || !route.body) continue;
    const types = [route.body.contentType, ...Object.keys(route.body.alternatives ?? {})];
    byPath.set(
      fullPath(route),
      types.flatMap((type) => (YAML_TYPES.includes(type) ? YAML_TYPES : [type])),
    );
  }
  return byPath;
}

function mediaType(header: string | undefined): string | null {
  const type = header?.split(";")[0].trim().toLowerCase();
  return type ? type : null;
}

function hasBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  return headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}

/** Options of {@link sameOriginGuard}. */
export interface SameOriginOptions {
  /** Origins besides the server's own that may send state-changing requests (`ALLOWED_ORIGINS`). */
  allowedOrigins: readonly string[];
  /** Whether a host name is one this server answers to (`hostAllowList`); loopback only if absent. */
  hostAllowed?: (hostname: string) => boolean;
}

const LOOPBACK_ONLY = (name: string) =>
  name === "localhost" || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);

/** The `host[:port]` of an origin with the scheme's default port made explicit, or null. */
function authorityOf(origin: string): { name: string; authority: string } | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const name = hostNameOf(url.host);
  return name === null ? null : { name, authority: `${url.hostname}:${port}` };
}

/** The request's `Host` as `host:port` (port from the URL's scheme when absent). */
function requestAuthority(request: Request): string | null {
  const host = requestHost(request).trim().toLowerCase();
  if (hostNameOf(host) === null) return null;
  if (/:\d+$/.test(host) && !host.endsWith("]")) return host;
  return `${host}:${new URL(request.url).protocol === "https:" ? "443" : "80"}`;
}

/**
 * The guard middleware.
 *
 * @example
 * ```ts ignore
 * app.use("*", sameOriginGuard({ allowedOrigins: [] }));
 * ```
 */
export function sameOriginGuard(options: SameOriginOptions): MiddlewareHandler<AppEnv> {
  const accepted = acceptedMediaTypes();
  const allowed = new Set(options.allowedOrigins.map((o) => o.replace(/\/+$/, "").toLowerCase()));
  const hostAllowed = options.hostAllowed ?? LOOPBACK_ONLY;
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return await next();
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      const given = origin.trim().toLowerCase();
      const parsed = authorityOf(given);
      const own = parsed !== null && hostAllowed(parsed.name) &&
        parsed.authority === requestAuthority(c.req.raw);
      if (!own && !allowed.has(given)) {
        throw new ProblemError(
          403,
          "cross-origin",
          `cross-origin ${c.req.method} refused: Origin ${
            origin.slice(0, 100)
          } is not this server's`,
        );
      }
    }
    if (c.req.header("sec-fetch-site") === "cross-site" && origin === undefined) {
      throw new ProblemError(403, "cross-origin", "cross-site request refused");
    }
    const type = mediaType(c.req.header("content-type"));
    const types = accepted.get(c.req.path) ?? ["application/json"];
    if (type === null ? hasBody(c.req.raw.headers) : !types.includes(type)) {
      throw new ProblemError(
        415,
        "unsupported-media-type",
        `${c.req.method} ${c.req.path} accepts ${types.join(" or ")}, not ${
          type ?? "a body without Content-Type"
        }`,
        {},
        { "accept-post": types.join(", ") },
      );
    }
    await next();
  };
}
