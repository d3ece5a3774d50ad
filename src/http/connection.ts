/**
 * One accepted TCP connection served by the runtime's own HTTP server (the
 * one under `Deno.serve`), with a header-read and a keep-alive idle deadline:
 * the connection is closed when no request's headers arrive within the
 * deadline. `timed_server.ts` runs the accept loop around it.
 *
 * The runtime's per-connection entry point is `serveHttpOnConnection`, which
 * Deno 2 keeps internal (`Deno[Deno.internal]`); {@link connectionServerAvailable}
 * says whether this runtime has it. It replaced `Deno.serveHttp`, whose
 * responses cost about three times as much CPU for a large body
 * (docs/performance.md, "Third pass on the index page").
 *
 * @module
 */

/** Serves one request: the app's `fetch`, with the connection's peer address. */
export type ConnectionHandler = (
  request: Request,
  info: { remoteAddr: Deno.NetAddr },
) => Response | Promise<Response>;

/** What the runtime's per-connection server returns. */
interface RuntimeServer {
  finished: Promise<void>;
}

type ServeOnConnection = (
  conn: Deno.Conn,
  signal: AbortSignal,
  handler: (request: Request, info: { completed: Promise<void> }) => Promise<Response>,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => RuntimeServer;

function serveOnConnectionFunction(): ServeOnConnection | null {
  const deno = Deno as unknown as Record<symbol, Record<string, unknown> | undefined>;
  const internal = (Deno as unknown as { internal?: symbol }).internal;
  const candidate = internal === undefined ? undefined : deno[internal]?.serveHttpOnConnection;
  return typeof candidate === "function" ? candidate as ServeOnConnection : null;
}

const serveOnConnection = serveOnConnectionFunction();

/** Whether this runtime can serve single connections ({@link serveConnection}). */
export function connectionServerAvailable(): boolean {
  return serveOnConnection !== null;
}

/** A connection being served. */
export interface ServedConnection {
  /** Settles when the connection is closed. */
  readonly done: Promise<void>;
  /** Closes once what is in flight is answered; an idle connection closes now. */
  drain(): void;
  /** Closes the connection now (shutdown's last resort). */
  abort(): void;
}

/** Deadlines of one connection. */
export interface ConnectionDeadlines {
  /** Time from accept to the end of the first request's headers; 0 = none. */
  headerTimeoutMs: number;
  /** Time from a response to the end of the next request's headers; 0 = none. */
  idleTimeoutMs: number;
  /** Whether the server is shutting down: answers then say `Connection: close`. */
  closing: () => boolean;
}

/** Swallows the error of aborting a connection the runtime has already released. */
function ignoreReleased(event: ErrorEvent): void {
  if (event.error instanceof Deno.errors.BadResource) event.preventDefault();
}

/** Whether a request announces a body (a `POST` without one leaves nothing unread). */
function hasBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  return headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}

/** Methods whose requests carry no body the server reads. */
const BODYLESS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Time an answer that closes the connection has to reach the peer before the close. */
const CLOSE_GRACE_MS = 250;

const INTERNAL_ERROR = () => new Response("internal error", { status: 500 });

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
 * Serves `conn` until the peer closes it, a deadline passes, or it is
 * drained or aborted. Throws when the runtime lacks the per-connection server.
 */
export function serveConnection(
  conn: Deno.Conn,
  deadlines: ConnectionDeadlines,
  handler: ConnectionHandler,
): ServedConnection {
  if (serveOnConnection === null) throw new Error("this Deno cannot serve a single connection");
  const remoteAddr = conn.remoteAddr as Deno.NetAddr;
  const info = { remoteAddr };
  const controller = new AbortController();
  // One timer per connection, re-armed only when it fires early: a request
  // just moves the deadline (a clock read), it never sets or clears a timer.
  let deadline = Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  let inFlight = 0;
  let closed = false;
  const abort = () => {
    clearTimeout(timer);
    if (closed) return;
    closed = true;
    // The runtime may have released the connection already (the peer closed
    // it a moment ago): its abort listener then throws BadResource, reported
    // as an uncaught error. There is nothing left to close then.
    globalThis.addEventListener("error", ignoreReleased);
    try {
      controller.abort();
    } finally {
      globalThis.removeEventListener("error", ignoreReleased);
    }
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
    if (Date.now() >= deadline) abort();
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
  let ending = false;
  // `completed` settles once the answer is handed over (a streamed body: sent).
  const settled = () => {
    if (--inFlight === 0) arm(ending ? CLOSE_GRACE_MS : deadlines.idleTimeoutMs);
  };
  const served = serveOnConnection(
    conn,
    controller.signal,
    async (request, { completed }) => {
      inFlight++;
      deadline = Infinity;
      completed.then(settled, settled);
      const response = await handler(request, info);
      // An answer that ends the connection (a body over its size or deadline, a
      // foreign Host), or one given without reading the request's body (a 401
      // before the body): the runtime's server would go on reading what the
      // client still sends, so the connection is closed shortly after it.
      if (
        (response.status >= 400 && response.headers.get("connection") === "close") ||
        (!BODYLESS.has(request.method) && !request.bodyUsed && hasBody(request.headers))
      ) ending = true;
      return deadlines.closing() ? closingResponse(response) : response;
    },
    INTERNAL_ERROR,
    () => {},
  );
  arm(deadlines.headerTimeoutMs);
  const done = served.finished.catch(() => {}).finally(() => {
    clearTimeout(timer);
    closed = true;
  });
  return {
    done,
    drain() {
      // An idle connection closes after a short grace, a busy one after its answer.
      ending = true;
      if (inFlight === 0) arm(CLOSE_GRACE_MS);
    },
    abort,
  };
}
