/**
 * The response type `AgentTestClient` returns: status and headers plus a
 * buffered body that can be read any number of times.
 *
 * @module
 */

/**
 * A response whose body was read once into memory (so the recorder and the test
 * can both use it, and no body is left unconsumed). Event streams are not
 * buffered: their `response` is the original, unread `Response`.
 *
 * @example
 * ```ts
 * import { AgentResponse } from "./agent_response.ts";
 * const res = await AgentResponse.from(Response.json({ ok: true }, { status: 201 }));
 * res.statusCode; // 201
 * res.json(); // { ok: true }
 * ```
 */
export class AgentResponse {
  /** HTTP status code. */
  readonly status: number;
  /** Alias of `status` (the seed's `status_code`). */
  readonly statusCode: number;
  readonly headers: Headers;
  readonly #bytes: Uint8Array | undefined;
  readonly #original: Response;

  private constructor(original: Response, bytes: Uint8Array | undefined) {
    this.status = original.status;
    this.statusCode = original.status;
    this.headers = original.headers;
    this.#original = original;
    this.#bytes = bytes;
  }

  /** Buffers `response` (unless it is an event stream) and wraps it. */
  static async from(response: Response): Promise<AgentResponse> {
    if (isEventStream(response.headers)) return new AgentResponse(response, undefined);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return new AgentResponse(response, bytes);
  }

  /** Whether the status is 2xx. */
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The raw body bytes (`undefined` for an event stream). */
  get bytes(): Uint8Array | undefined {
    return this.#bytes;
  }

  /** The body as text. Throws for an event stream; read `response.body` instead. */
  text(): string {
    if (this.#bytes === undefined) {
      throw new TypeError("Cannot read an event-stream response as text: use response.body");
    }
    return new TextDecoder().decode(this.#bytes);
  }

  /** The body decoded as JSON. Throws a `SyntaxError` when it is not JSON. */
  json<T = unknown>(): T {
    return JSON.parse(this.text()) as T;
  }

  /** A standard `Response` with the same status, headers and body. */
  get response(): Response {
    if (this.#bytes === undefined) return this.#original;
    return new Response(this.status === 204 || this.status === 304 ? null : this.#bytes.slice(), {
      status: this.status,
      statusText: this.#original.statusText,
      headers: this.headers,
    });
  }
}

function isEventStream(headers: Headers): boolean {
  return (headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}
