/**
 * One call of the policyd API as the client sends it: the context headers
 * (project, source, agent, bearer token) and the answer's JSON, with
 * transport failures and HTTP errors turned into the client's errors.
 *
 * @module
 */
import { DEFAULT_CLIENT_TIMEOUT_MS } from "../../src/api/evaluate_limits.ts";
import type { CallSource } from "../../src/api/headers.ts";
import { CONTEXT_HEADER_NAMES } from "../../src/api/header_names.ts";
import { problemDetail, transportDetail } from "./api_answer.ts";
import { ServerError, ServerUnreachable } from "./exit_codes.ts";
import type { HttpAnswer, Transport } from "./transport.ts";

/** One package to evaluate in a batch. */
export interface PackageQuery {
  package: string;
  version?: string | null;
}

/** Everything the client needs; no process access of its own. */
export interface ApiClientOptions {
  serverUrl: string;
  project: string;
  failOpen: boolean;
  source: CallSource;
  agentModel?: string | null;
  agentVersion?: string | null;
  /** Bearer token sent in org mode. */
  token?: string | null;
  timeoutMs?: number;
  /** How requests are sent; default: over `fetch` (the next option, else the global one). */
  transport?: Transport;
  /** A `fetch` to send requests with (tests' fakes). */
  fetch?: typeof fetch;
  /**
   * The file keeping the last registry snapshot for offline decisions
   * (`offline_registry.ts`); none when null or absent.
   */
  registryCache?: string | null;
}

/** Plain headers: a `Headers` would load Deno's fetch stack (`transport.ts`). */
export function requestHeaders(o: ApiClientOptions, json: boolean): Record<string, string> {
  const h: Record<string, string> = { accept: "application/json" };
  if (json) h["content-type"] = "application/json";
  h[CONTEXT_HEADER_NAMES.project] = o.project;
  h[CONTEXT_HEADER_NAMES.source] = o.source;
  if (o.agentModel) h[CONTEXT_HEADER_NAMES.agentModel] = o.agentModel;
  if (o.agentVersion) h[CONTEXT_HEADER_NAMES.agentVersion] = o.agentVersion;
  if (o.token) h.authorization = `Bearer ${o.token}`;
  return h;
}

/**
 * One call: the answer's JSON body; a transport failure is `ServerUnreachable`,
 * an HTTP error `ServerError` with the problem's detail.
 */
export async function callApi(
  send: Transport,
  o: ApiClientOptions,
  method: string,
  path: string,
  init: { query?: Record<string, string>; json?: unknown; sent?: () => void },
): Promise<unknown> {
  const url = new URL(o.serverUrl + path);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  let response: HttpAnswer;
  try {
    response = await send(url, {
      method,
      headers: requestHeaders(o, init.json !== undefined),
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      signal: AbortSignal.timeout(o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS),
      sent: init.sent,
    });
  } catch (error) {
    const name = (error as Error)?.name;
    const detail = name === "TimeoutError"
      ? `no answer within ${(o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS) / 1000} s`
      : transportDetail(error);
    throw new ServerUnreachable(o.serverUrl, detail);
  }
  const text = response.text;
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.status < 200 || response.status > 299) {
    throw new ServerError(response.status, problemDetail(body, text, response));
  }
  if (body === null) throw new ServerError(response.status, "response is not JSON");
  return body;
}
