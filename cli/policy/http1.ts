/**
 * One HTTP/1.1 exchange on a plain TCP connection, for the client's calls to
 * an `http:` policyd (the single-user default is `http://127.0.0.1:8765`).
 * Deno's `fetch` initialises its whole stack (streams, WebIDL, body mixins)
 * on first use, which costs a `policy check` about a third of its start-up
 * budget (docs/performance.md, "Client start-up"); so does building a
 * `Headers` or `Response`, which is why requests and answers here are plain
 * objects. `https:` URLs and proxied environments go through `fetch`
 * (`transport.ts`).
 *
 * It sends `Connection: close` and reads to the end of the stream, so it
 * needs no keep-alive handling; bodies are `Content-Length`-delimited,
 * chunked, or run to the end of the connection.
 *
 * @module
 */

const encoder = new TextEncoder();

/** One request: header names in lower case. */
export interface HttpRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /**
   * Called once the whole request is written, while the answer is awaited:
   * work that does not need the answer can run then (`api_client.ts`).
   */
  sent?: () => void;
}

/** One whole answer: header names in lower case, the body decoded as UTF-8. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  text: string;
}

/** Sends one request to an `http:` URL and returns the whole answer. */
export async function http1Request(url: URL, init: HttpRequest): Promise<HttpAnswer> {
  if (url.protocol !== "http:") throw new TypeError(`http1Request: not an http: URL: ${url}`);
  init.signal?.throwIfAborted();
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const conn = await Deno.connect({ hostname, port: Number(url.port || 80) });
  const abort = () => conn.close();
  init.signal?.addEventListener("abort", abort, { once: true });
  try {
    const body = init.body === undefined ? undefined : encoder.encode(init.body);
    const lines = [`${init.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
    for (const [name, value] of Object.entries(init.headers)) lines.push(`${name}: ${value}`);
    if (body) lines.push(`content-length: ${body.length}`);
    lines.push("connection: close", "", "");
    await writeAll(conn, encoder.encode(lines.join("\r\n")));
    if (body) await writeAll(conn, body);
    init.sent?.();
    return parseResponse(await readAll(conn));
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    throw error;
  } finally {
    init.signal?.removeEventListener("abort", abort);
    try {
      conn.close();
    } catch {
      // already closed by an abort
    }
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

async function readAll(conn: Deno.Conn): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const buffer = new Uint8Array(64 * 1024);
  for (let n; (n = await conn.read(buffer)) !== null;) {
    chunks.push(buffer.slice(0, n));
    size += n;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** The status, headers and body of the bytes of one HTTP/1.1 answer. */
export function parseResponse(bytes: Uint8Array): HttpAnswer {
  const end = indexOf(bytes, [13, 10, 13, 10], 0);
  if (end < 0) throw new TypeError("incomplete HTTP response");
  const head = new TextDecoder().decode(bytes.subarray(0, end)).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(head[0]);
  if (!status) throw new TypeError(`invalid HTTP status line: ${head[0].slice(0, 80)}`);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, Math.max(colon, 0)).trim().toLowerCase();
    if (!name || name === "__proto__") continue;
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body = bytes.subarray(end + 4);
  if (/\bchunked\b/i.test(headers["transfer-encoding"] ?? "")) {
    body = dechunk(body);
  } else if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    if (!(length <= body.length)) throw new TypeError("HTTP response body cut short");
    body = body.subarray(0, length);
  }
  return {
    status: Number(status[1]),
    statusText: status[2] ?? "",
    headers,
    text: new TextDecoder().decode(body),
  };
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    const eol = indexOf(bytes, [13, 10], at);
    if (eol < 0) throw new TypeError("HTTP response body cut short");
    const size = parseInt(new TextDecoder().decode(bytes.subarray(at, eol)), 16);
    if (!Number.isFinite(size)) throw new TypeError("invalid HTTP chunk size");
    if (size === 0) break;
    if (eol + 2 + size > bytes.length) throw new TypeError("HTTP response body cut short");
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function indexOf(bytes: Uint8Array, needle: number[], from: number): number {
  outer: for (let i = from; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
