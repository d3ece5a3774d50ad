/**
 * Request validation helpers: zod at the edge, failures as 400 problems
 * with path-qualified errors.
 *
 * @module
 */
import type { z } from "zod";
import type { Context } from "hono";
import { formatPath } from "../registry/schema.ts";
import { badRequest, ProblemError } from "./problem.ts";

/** Parses a value with a schema or throws a 400 problem naming each bad field. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  throw badRequest(
    `invalid ${what}: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
    errors,
  );
}

/** Default time a client has to send a whole request body (`REQUEST_READ_TIMEOUT_MS`). */
export const DEFAULT_BODY_READ_TIMEOUT_MS = 30_000;

/**
 * Errors the runtime raises when the client goes away while its body is read
 * (`Content-Length: 100`, 12 bytes sent, connection closed).
 */
export function isClientAbort(error: unknown): boolean {
  return error instanceof ClientAbortError ||
    error instanceof Deno.errors.BadResource ||
    error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.UnexpectedEof ||
    error instanceof Deno.errors.Interrupted ||
    // Deno.serveHttp (the timed server) reports a body cut short as an Http error.
    (error instanceof Deno.errors.Http && /reading a body/i.test(error.message));
}

/** The client closed the connection before its body arrived: a client event, not a server fault. */
export class ClientAbortError extends Error {
  constructor(cause: unknown) {
    super(`the client closed the connection while sending its body: ${String(cause)}`);
    this.name = "ClientAbortError";
  }
}

/**
 * Reads the raw request body within the read time limit: 408 when the
 * client is too slow, {@link ClientAbortError} when it goes away.
 */
export async function bodyBytes(c: Context): Promise<Uint8Array> {
  const deadline = bodyDeadline(c.get("bodyReadTimeoutMs") ?? DEFAULT_BODY_READ_TIMEOUT_MS);
  try {
    return new Uint8Array(await Promise.race([c.req.arrayBuffer(), deadline.late]));
  } catch (error) {
    if (error instanceof ProblemError) {
      c.req.raw.body?.cancel().catch(() => {});
      throw error;
    }
    if (isClientAbort(error)) throw new ClientAbortError(error);
    throw error;
  } finally {
    deadline.clear();
  }
}

/**
 * A body's read deadline: `late` rejects with a 408 problem (`Connection:
 * close`) after `limitMs`; `clear()` when the body has arrived.
 */
export function bodyDeadline(limitMs: number): { late: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() =>
      reject(
        new ProblemError(
          408,
          "request-timeout",
          `the request body did not arrive within ${limitMs} ms`,
          {},
          { connection: "close" },
        ),
      ), limitMs);
  });
  late.catch(() => {}); // nobody may be racing it when it fires
  return { late, clear: () => clearTimeout(timer) };
}

/** Reads the request body as UTF-8 text (see {@link bodyBytes}). */
export async function bodyText(c: Context): Promise<string> {
  return new TextDecoder().decode(await bodyBytes(c));
}

/** Reads a JSON body or throws a 400 problem when it is not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await bodyText(c);
  if (text.trim() === "") throw badRequest("request body is empty; expected JSON");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
}
