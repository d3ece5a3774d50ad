/**
 * How the client sends its requests. `fetch` is correct everywhere but
 * initialises Deno's whole fetch stack on first use (docs/performance.md,
 * "Client start-up"); an `http:` server reached without a proxy, which is
 * the single-user setup, gets one plain HTTP/1.1 exchange (`http1.ts`)
 * instead. `https:` and any proxy variable keep `fetch`, which implements
 * TLS and the proxy settings.
 *
 * @module
 */

import { http1Request } from "./http1.ts";
import type { HttpAnswer, HttpRequest } from "./http1.ts";

export type { HttpAnswer, HttpRequest };

/** Sends one request and reads the whole answer; rejects on transport failure. */
export type Transport = (url: URL, request: HttpRequest) => Promise<HttpAnswer>;

/** Variables that make `fetch` use a proxy for `http:` URLs. */
const PROXY_VARIABLES = ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"];

/** A transport over `fetchFn` (a test's fake), else the global `fetch` (looked up on use). */
export function fetchTransport(fetchFn?: typeof fetch): Transport {
  return async (url, request) => {
    const answer = (fetchFn ?? fetch)(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    request.sent?.();
    const response = await answer;
    return {
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers),
      text: await response.text(),
    };
  };
}

/** Plain HTTP/1.1 for `http:` URLs when no proxy variable is set in `env`; `fetch` otherwise. */
export function defaultTransport(env: (name: string) => string | undefined): Transport {
  const proxied = PROXY_VARIABLES.some((name) => env(name));
  const viaFetch = fetchTransport();
  return (url, request) =>
    url.protocol === "http:" && !proxied ? http1Request(url, request) : viaFetch(url, request);
}
