/**
 * Every request body gets a size and a deadline before it is buffered
 * (issue 34): a declared `Content-Length` over the limit is refused at once
 * (413); otherwise the body, chunked or not, is read into memory as it
 * arrives, and refused with 413 as soon as it passes the limit or with 408
 * when it has not arrived within `REQUEST_READ_TIMEOUT_MS`. Both answers
 * close the connection. The app runs this after authentication, so in org
 * mode an unauthenticated caller never gets a byte of its body read. Routes
 * then read the buffered copy (`validate.ts`, `/mcp`).
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";
import { bodyDeadline, ClientAbortError, isClientAbort } from "../validate.ts";

/** Options of {@link bodyBudget}. */
export interface BodyBudgetOptions {
  maxBytes: number;
  /** Time the client has to send the whole body. */
  timeoutMs: number;
}

const CLOSE = { connection: "close" };

function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError(
    413,
    "body-too-large",
    `request body exceeds ${maxBytes} bytes`,
    {},
    CLOSE,
  );
}

/**
 * Reads a body stream within a size and a time limit; rejects with a 413 or
 * 408 {@link ProblemError} (the stream cancelled) or a {@link ClientAbortError}.
 */
export async function readBounded(
  body: ReadableStream<Uint8Array>,
  options: BodyBudgetOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const deadline = bodyDeadline(options.timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline.late]);
      if (done) break;
      size += value.byteLength;
      if (size > options.maxBytes) throw tooLarge(options.maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof ProblemError) throw error;
    if (isClientAbort(error)) throw new ClientAbortError(error);
    throw error;
  } finally {
    deadline.clear();
  }
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

/**
 * The middleware: buffers the body within its budget and hands the route a
 * request carrying the buffered copy.
 *
 * @example
 * ```ts ignore
 * app.use("*", bodyBudget({ maxBytes: 1_048_576, timeoutMs: 30_000 }));
 * ```
 */
export function bodyBudget(options: BodyBudgetOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body === null || raw.bodyUsed) return await next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      const length = Number(declared);
      if (!Number.isFinite(length) || length > options.maxBytes) {
        raw.body.cancel().catch(() => {});
        throw tooLarge(options.maxBytes);
      }
    }
    const bytes = await readBounded(raw.body, options);
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      body: bytes.byteLength > 0 ? bytes : null,
    });
    await next();
  };
}
