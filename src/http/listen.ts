/**
 * The socket under the app: our own accept loop when header-read or idle
 * time-outs are set (Deno.serve has none), `Deno.serve` otherwise.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import type { GuardOptions } from "./guard_settings.ts";
import type { HttpOptions } from "./settings.ts";
import { serveWithTimeouts, timedServerAvailable } from "./timed_server.ts";

/** What {@link listen} returns: the part of `Deno.HttpServer` the server uses. */
export type Listening = Pick<Deno.HttpServer<Deno.NetAddr>, "addr" | "finished" | "shutdown">;

/** Where and how to listen. */
export interface ListenOptions {
  hostname: string;
  port: number;
  http: HttpOptions;
  guard: GuardOptions;
  log: Logger;
}

/**
 * Serves `handler` on a socket (port 0 picks a free port).
 *
 * @example
 * ```ts
 * import { listen } from "./listen.ts";
 * import { DEFAULT_HTTP_OPTIONS } from "./settings.ts";
 * import { DEFAULT_GUARD_OPTIONS } from "./guard_settings.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const server = listen(() => new Response("ok"), {
 *   hostname: "127.0.0.1", port: 0, http: DEFAULT_HTTP_OPTIONS, guard: DEFAULT_GUARD_OPTIONS, log,
 * });
 * await server.shutdown();
 * ```
 */
export function listen(
  handler: (request: Request, info: { remoteAddr: Deno.NetAddr }) => Response | Promise<Response>,
  options: ListenOptions,
): Listening {
  const { hostname, port, http, guard, log } = options;
  const timed = http.headerTimeoutMs > 0 || http.idleTimeoutMs > 0;
  if (!timed || !timedServerAvailable()) {
    return Deno.serve({ hostname, port, onListen: () => {} }, handler);
  }
  return serveWithTimeouts({
    hostname,
    port,
    headerTimeoutMs: http.headerTimeoutMs,
    idleTimeoutMs: http.idleTimeoutMs,
    maxConnections: guard.maxConnections,
    // A body still arriving after its read deadline no longer holds the shutdown.
    drainTimeoutMs: http.bodyReadTimeoutMs + 5_000,
    onAcceptError: (error, { transient, retryInMs }) =>
      transient
        ? log.warn("accept failed; retrying", { error: String(error), retry_in_ms: retryInMs })
        : log.error("accept failed; the server stops", { error: String(error) }),
  }, handler);
}
