/**
 * Finds the route template a concrete request path was served by, from the
 * route list a Hono app exposes as `app.routes`.
 *
 * @module
 */

/** The part of a Hono route entry this module reads. */
export interface RouteInfo {
  method: string;
  path: string;
}

/** A matched template with its named parameters. */
export interface RouteMatch {
  route: string;
  params: Record<string, string>;
}

/**
 * Returns the first non-middleware route of the same method whose template
 * matches `pathname` (compared with `URLPattern`), or `undefined`. Templates
 * `URLPattern` cannot compile (Hono's `{regex}` syntax) are skipped.
 *
 * @example
 * ```ts
 * import { matchRoute } from "./route_template.ts";
 * matchRoute([{ method: "GET", path: "/items/:id" }], "GET", "/items/42");
 * // { route: "/items/:id", params: { id: "42" } }
 * ```
 */
export function matchRoute(
  routes: readonly RouteInfo[],
  method: string,
  pathname: string,
): RouteMatch | undefined {
  for (const candidate of routes) {
    if (candidate.method.toUpperCase() !== method.toUpperCase()) continue;
    const pattern = compile(candidate.path);
    const result = pattern?.exec({ pathname });
    if (!result) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.pathname.groups)) {
      if (value !== undefined && !/^\d+$/.test(name)) params[name] = value;
    }
    return { route: candidate.path, params };
  }
  return undefined;
}

function compile(path: string): URLPattern | undefined {
  try {
    return new URLPattern({ pathname: path });
  } catch {
    return undefined;
  }
}
