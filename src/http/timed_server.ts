/**
 * A socket server with a header-read and a keep-alive idle time-out.
 * `Deno.serve` (Deno 2.9) has neither, so a client that never finishes its
 * request headers would hold a connection forever. This server accepts TCP
 * connections itself and serves each with `Deno.serveHttp`, closing it when
 * the first request's headers do not arrive within `headerTimeoutMs` or the
 * next request's headers within `idleTimeoutMs`. Where the runtime lacks
 * `Deno.serveHttp`, {@link timedServerAvailable} says so and the caller falls
 * back to `Deno.serve`. `shutdown()` stops
 * accepting, closes idle connections and waits for in-flight requests, as
 * `Deno.serve`'s does.
 *
 * @module
 */

/** Options of {@link serveWithTimeouts}. */
export interface TimedServerOptions {
  hostname: string;
  port: number;
  /** Time from accept to the end of the first request's headers; 0 = none. */
  headerTimeoutMs: number;
  /** Time from a response to the end of the next request's headers; 0 = none. */
  idleTimeoutMs: number;
}

/** The request handler (the Hono app's `fetch`). */
export type TimedHandler = (
  request: Request,
  info: { remoteAddr: Deno.NetAddr },
) => Response | Promise<Response>;

/** A running server. */
export interface TimedServer {
  readonly addr: Deno.NetAddr;
  /** Resolves when the server has shut down. */
  readonly finished: Promise<void>;
  /** Stops accepting, closes idle connections, waits for in-flight requests. */
  shutdown(): Promise<void>;
}

/** The parts of Deno's per-connection HTTP server used here (`Deno.serveHttp`). */
interface HttpConn {
  nextRequest(): Promise<{ request: Request; respondWith(r: Response): Promise<void> } | null>;
  close(): void;
}

type ServeHttp = (conn: Deno.Conn) => HttpConn;

/**
 * `Deno.serveHttp`, when the runtime still has it: Deno 2 keeps it at run time
 * but no longer declares it, and a later release may drop it.
 */
function serveHttpFunction(): ServeHttp | null {
  const candidate = (Deno as unknown as { serveHttp?: ServeHttp }).serveHttp;
  return typeof candidate === "function" ? candidate.bind(Deno) : null;
}

/** Whether {@link serveWithTimeouts} can run on this runtime. */
export function timedServerAvailable(): boolean {
  return serveHttpFunction() !== null;
}

interface Connection {
  busy: boolean;
  /** Closes the connection after a short grace, so a response just sent is flushed. */
  drain(): void;
  done: Promise<void>;
}

/** Grace before a connection is closed during shutdown (lets a just-sent response flush). */
const DRAIN_MS = 250;

/** The response with `Connection: close`, so the peer does not send another request. */
function closingResponse(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("connection", "close");
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
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
  const serveHttp = serveHttpFunction();
  if (serveHttp === null) throw new Error("this Deno has no Deno.serveHttp");
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const connections = new Set<Connection>();
  let closing = false;

  const serveConnection = (conn: Deno.Conn) => {
    // Deno.serveHttp is the runtime's per-connection HTTP server; Deno.serve offers no time-outs.
    const http = serveHttp(conn);
    const remoteAddr = conn.remoteAddr as Deno.NetAddr;
    // One timer per connection, re-armed only when it fires early: a request
    // just moves the deadline (a clock read), it never sets or clears a timer.
    let deadline = Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timerAt = Infinity;
    let closed = false;
    const close = () => {
      clearTimeout(timer);
      if (closed) return;
      closed = true;
      try {
        http.close();
      } catch { /* already closed by the peer */ }
    };
    const schedule = (at: number) => {
      clearTimeout(timer);
      timerAt = at;
      timer = setTimeout(expire, Math.max(0, at - Date.now()));
    };
    function expire() {
      timer = undefined;
      timerAt = Infinity;
      if (deadline === Infinity) return; // a request is being answered; re-armed after it
      if (Date.now() >= deadline) close();
      else schedule(deadline);
    }
    /** Closes the connection `ms` from now unless a request starts first; 0 = never. */
    const arm = (ms: number) => {
      if (ms <= 0) {
        deadline = Infinity;
        return;
      }
      deadline = Date.now() + ms;
      if (timerAt > deadline || timer === undefined) schedule(deadline);
    };
    const connection: Connection = {
      busy: false,
      drain: () => arm(DRAIN_MS),
      done: Promise.resolve(),
    };
    connection.done = (async () => {
      arm(options.headerTimeoutMs);
      try {
        while (!closed) {
          const event = await http.nextRequest();
          deadline = Infinity;
          if (event === null) break;
          connection.busy = true;
          let response: Response;
          try {
            response = await handler(event.request, { remoteAddr });
          } catch {
            response = new Response("internal error", { status: 500 });
          }
          // respondWith resolves before the bytes are flushed: never close right after it.
          await event.respondWith(closing ? closingResponse(response) : response).catch(() => {});
          connection.busy = false;
          arm(closing ? DRAIN_MS : options.idleTimeoutMs);
        }
      } catch {
        // The peer went away or sent something that is not HTTP: nothing to answer.
      } finally {
        close();
        connections.delete(connection);
      }
    })();
    connections.add(connection);
  };

  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        if (closing) conn.close();
        else serveConnection(conn);
      }
    } catch {
      // The listener was closed by shutdown().
    }
  })();

  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => resolveFinished = resolve);
  let stopping: Promise<void> | null = null;
  return {
    addr: listener.addr as Deno.NetAddr,
    finished,
    shutdown() {
      return stopping ??= (async () => {
        closing = true;
        try {
          listener.close();
        } catch { /* already closed */ }
        await accepting;
        for (const connection of connections) if (!connection.busy) connection.drain();
        await Promise.all([...connections].map((c) => c.done));
        resolveFinished();
      })();
    },
  };
}
