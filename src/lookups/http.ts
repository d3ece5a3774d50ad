/**
 * Upstream HTTP for the lookup adapters: one request with a time-out
 * (`AbortSignal.timeout`) whose JSON answer is validated with zod. Failures
 * are values, never exceptions, so adapters can turn them into
 * `{status: "unavailable"}`.
 *
 * @module
 */
import type { z } from "zod";
import { redact } from "../log/redact.ts";
import { upstreamPool } from "./pool.ts";

/** The outcome of an upstream call: validated data, a 404, or a failure with a reason. */
export type FetchResult<T> =
  | { ok: true; data: T }
  | { ok: false; notFound: boolean; detail: string };

/** Options of {@link fetchJson}. */
export interface FetchJsonOptions {
  method?: "GET" | "POST";
  /** JSON request body (POST). */
  body?: unknown;
  /** Aborts the request, including reading its body, after this many milliseconds. */
  timeoutMs: number;
  /** An extra signal, e.g. one deadline shared by every page of a paginated lookup. */
  signal?: AbortSignal;
}

/**
 * Requests `url` and validates the JSON answer with `schema`, holding one
 * slot of the process-wide upstream pool (`./pool.ts`) while it does; time
 * spent waiting for a slot counts against the time-out. Never throws:
 * network errors, non-2xx statuses, malformed JSON, schema mismatches and
 * time-outs come back as `{ok: false, detail}`; a 404 also sets `notFound`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const r = await fetchJson("https://pypi.org/pypi/requests/json", z.object({}), { timeoutMs: 4000 });
 * if (!r.ok) console.log(r.detail);
 * ```
 */
export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  options: FetchJsonOptions,
): Promise<FetchResult<z.infer<S>>> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    return await upstreamPool.run(() => exchange(url, schema, options, signal), signal);
  } catch (error) {
    // Only the wait for a slot throws (the exchange turns failures into values).
    const where = `${options.method ?? "GET"} ${redact(url)}`;
    return { ok: false, notFound: false, detail: describeFailure(where, error, signal) };
  }
}

async function exchange<S extends z.ZodType>(
  url: string,
  schema: S,
  options: FetchJsonOptions,
  signal: AbortSignal,
): Promise<FetchResult<z.infer<S>>> {
  const method = options.method ?? "GET";
  const where = `${method} ${redact(url)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      signal,
      headers: {
        accept: "application/json",
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (error) {
    return { ok: false, notFound: false, detail: describeFailure(where, error, signal) };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return { ok: false, notFound: false, detail: describeFailure(where, error, signal) };
  }
  if (!response.ok) {
    return {
      ok: false,
      notFound: response.status === 404,
      detail: `${where} answered HTTP ${response.status}`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, notFound: false, detail: `${where} answered malformed JSON` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "(root)";
    return {
      ok: false,
      notFound: false,
      detail: `${where} answered unexpected JSON at ${path}: ${issue?.message}`,
    };
  }
  return { ok: true, data: parsed.data };
}

function describeFailure(where: string, error: unknown, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason = signal.reason;
    if (reason instanceof DOMException && reason.name === "TimeoutError") {
      return `${where} timed out`;
    }
    return `${where} was aborted`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${where} failed: ${message}`;
}
