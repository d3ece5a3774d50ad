/**
 * What the timed server's accept loop does when accepting goes wrong: which
 * accept errors are transient (retried with a growing back-off) and how a
 * connection beyond the cap is refused (a 503, then closed).
 *
 * @module
 */

/** Back-off after a transient accept error: the first wait. */
export const MIN_BACKOFF_MS = 10;
/** The cap of the back-off's doubling. */
export const MAX_BACKOFF_MS = 1_000;

/** Accept errors that go away by themselves (descriptor limits, a peer that gave up). */
const TRANSIENT_ACCEPT_CODES = new Set([
  "EMFILE",
  "ENFILE",
  "ENOBUFS",
  "ENOMEM",
  "ECONNABORTED",
  "ECONNRESET",
  "EPROTO",
  "EPERM",
  "EAGAIN",
  "EINTR",
  "ETIMEDOUT",
]);

/** Whether an accept error is worth retrying. */
export function isTransientAcceptError(error: unknown): boolean {
  if (
    error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.Interrupted ||
    error instanceof Deno.errors.TimedOut ||
    error instanceof Deno.errors.WouldBlock
  ) return true;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && TRANSIENT_ACCEPT_CODES.has(code)) return true;
  return /os error (24|23|103|105|12)\)/.test(String((error as Error)?.message));
}

const BUSY_BODY = JSON.stringify({
  type: "https://policyd.dev/problems/too-many-connections",
  title: "Service Unavailable",
  status: 503,
  detail: "the server holds its maximum number of connections; retry shortly",
});
const BUSY_RESPONSE = new TextEncoder().encode(
  "HTTP/1.1 503 Service Unavailable\r\n" +
    "content-type: application/problem+json\r\n" +
    "retry-after: 1\r\n" +
    "connection: close\r\n" +
    `content-length: ${new TextEncoder().encode(BUSY_BODY).length}\r\n\r\n` +
    BUSY_BODY,
);
/** How long a refused connection may take to take its 503 before it is closed. */
const BUSY_LINGER_MS = 1_000;

/**
 * Answers a connection beyond the cap with a 503 and closes it. The request
 * is read (and dropped) for a moment first, so the peer gets the answer
 * rather than a reset.
 */
export function refuseBusy(conn: Deno.Conn): void {
  (async () => {
    const timer = setTimeout(() => {
      try {
        conn.close();
      } catch { /* closed */ }
    }, BUSY_LINGER_MS);
    try {
      await conn.write(BUSY_RESPONSE);
      await conn.closeWrite();
      const sink = new Uint8Array(4096);
      while ((await conn.read(sink)) !== null) { /* drain until the peer closes */ }
    } catch { /* the peer went away, or the linger timer closed it */ }
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed by the timer */ }
  })();
}
