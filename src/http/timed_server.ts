/**
 * A socket server with a header-read and a keep-alive idle time-out.
 * `Deno.serve` (Deno 2.9) has neither, so a client that never finishes its
 * request headers would hold a connection forever. This server accepts TCP
 * connections itself and serves each with the runtime's HTTP server
 * (`connection.ts`), closing it when
 * the first request's headers do not arrive within `headerTimeoutMs` or the
 * next request's headers within `idleTimeoutMs`. Where the runtime cannot
 * serve single connections, {@link timedServerAvailable} says so and the
 * caller falls back to `Deno.serve`. `shutdown()` stops
 * accepting, closes idle connections and waits for in-flight requests, as
 * `Deno.serve`'s does, closing any still open `drainTimeoutMs` later (a
 * client trickling its body cannot hold the shutdown).
 *
 * The accept loop survives what a busy server meets (issue 34): transient
 * accept errors (`EMFILE`, `ENFILE`, `ECONNABORTED`, …) are logged and retried
 * with a growing back-off; any other accept error ends the server and rejects
 * `finished`, so the process exits non-zero. Beyond `maxConnections` open
 * connections a new one gets a `503` and is closed.
 *
 * @module
 */

import {
  isTransientAcceptError,
  MAX_BACKOFF_MS,
  MIN_BACKOFF_MS,
  refuseBusy,
} from "./accept_guard.ts";
import {
  type ConnectionHandler,
  connectionServerAvailable,
  serveConnection,
  type ServedConnection,
} from "./connection.ts";

export { isTransientAcceptError } from "./accept_guard.ts";

/** Options of {@link serveWithTimeouts}. */
export interface TimedServerOptions {
  hostname: string;
  port: number;
  /** Time from accept to the end of the first request's headers; 0 = none. */
  headerTimeoutMs: number;
  /** Time from a response to the end of the next request's headers; 0 = none. */
  idleTimeoutMs: number;
  /** Connections held at once; a further one is answered 503 and closed. 0 = no cap. */
  maxConnections?: number;
  /** Longest `shutdown()` waits for in-flight requests before closing their connections. */
  drainTimeoutMs?: number;
  /** Where accept errors are reported (a transient one once per back-off run). */
  onAcceptError?: (error: Error, detail: { transient: boolean; retryInMs: number }) => void;
}

/** The request handler (the Hono app's `fetch`). */
export type TimedHandler = ConnectionHandler;

/** A running server. */
export interface TimedServer {
  readonly addr: Deno.NetAddr;
  /**
   * Resolves when the server has shut down; rejects with the error when the
   * accept loop met a fatal one (the caller should exit non-zero).
   */
  readonly finished: Promise<void>;
  /** Stops accepting, closes idle connections, waits for in-flight requests. */
  shutdown(): Promise<void>;
}

/** Whether {@link serveWithTimeouts} can run on this runtime. */
export function timedServerAvailable(): boolean {
  return connectionServerAvailable();
}

/**
 * Listens on `hostname:port` (0 picks a free port) and serves `handler` with
 * header-read and idle time-outs. Throws when the address cannot be bound.
 *
 * @example
 * ```ts
 * const server = serveWithTimeouts(
 *   { hostname: "127.0.0.1", port: 0, headerTimeoutMs: 10_000, idleTimeoutMs: 60_000 },
 *   () => new Response("ok"),
 * );
 * await server.shutdown();
 * ```
 */
export function serveWithTimeouts(options: TimedServerOptions, handler: TimedHandler): TimedServer {
  if (!connectionServerAvailable()) throw new Error("this Deno cannot serve a single connection");
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const connections = new Set<ServedConnection>();
  let closing = false;
  const deadlines = {
    headerTimeoutMs: options.headerTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    closing: () => closing,
  };

  const accept = (conn: Deno.Conn) => {
    const connection = serveConnection(conn, deadlines, handler);
    connections.add(connection);
    connection.done.then(() => connections.delete(connection));
  };

  let resolveFinished!: () => void;
  let rejectFinished!: (error: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    resolveFinished = resolve;
    rejectFinished = reject;
  });
  // A fatal accept error is reported through `finished`; nobody awaiting it is not a crash.
  finished.catch(() => {});
  let fatal: Error | null = null;
  const maxConnections = options.maxConnections ?? 0;

  const accepting = (async () => {
    let backoff = 0;
    while (!closing) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (closing || error instanceof Deno.errors.BadResource) break; // closed by shutdown()
        const transient = isTransientAcceptError(error);
        if (!transient) {
          fatal = error as Error;
          options.onAcceptError?.(fatal, { transient: false, retryInMs: 0 });
          break;
        }
        backoff = Math.min(MAX_BACKOFF_MS, backoff === 0 ? MIN_BACKOFF_MS : backoff * 2);
        options.onAcceptError?.(error as Error, { transient: true, retryInMs: backoff });
        await new Promise((resolve) => setTimeout(resolve, backoff));
        continue;
      }
      backoff = 0;
      if (closing) conn.close();
      else if (maxConnections > 0 && connections.size >= maxConnections) refuseBusy(conn);
      else accept(conn);
    }
  })();

  const stop = async (): Promise<void> => {
    closing = true;
    try {
      listener.close();
    } catch { /* already closed */ }
    await accepting;
    for (const connection of connections) connection.drain();
    const all = Promise.all([...connections].map((c) => c.done));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drainMs = options.drainTimeoutMs ?? 0;
    const late = drainMs > 0
      ? new Promise<void>((resolve) => timer = setTimeout(resolve, drainMs))
      : new Promise<void>(() => {});
    await Promise.race([all, late]);
    clearTimeout(timer);
    for (const connection of connections) connection.abort();
    await all;
  };

  let stopping: Promise<void> | null = null;
  const shutdown = () =>
    stopping ??= stop().then(() => fatal ? rejectFinished(fatal) : resolveFinished());
  // After a fatal accept error the server stops on its own, so `finished` settles.
  accepting.then(() => {
    if (fatal) shutdown();
  });
  return {
    addr: listener.addr as Deno.NetAddr,
    finished,
    shutdown,
  };
}
