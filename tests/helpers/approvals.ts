/**
 * Small helpers for approval tests over real sockets: JSON calls, polling
 * a request until its proposer has answered, signing webhook deliveries.
 *
 * @module
 */
import { signBody } from "../../src/approvals/webhook.ts";

/** A JSON response: status and parsed body. */
export interface JsonResponse {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

/** Calls the API and parses the JSON answer (with a time limit so a hang fails the test). */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] = "application/json";
  } else if (options.body !== undefined) body = options.body as BodyInit;
  const res = await fetch(base + path, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Polls an approval request until its proposer outcome is recorded. */
export async function waitForProposal(
  base: string,
  id: number,
  timeoutMs = 20_000,
): Promise<{ proposal_status: string; proposal_detail: string }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await call(base, "GET", `/api/v1/approval-requests/${id}`);
    if (res.status === 200 && res.body.proposal_status !== null) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`approval request ${id} got no proposal outcome within ${timeoutMs} ms`);
}

/** Headers of a signed webhook delivery. */
export async function signedDelivery(secret: string, event: string, payload: unknown) {
  const body = new TextEncoder().encode(JSON.stringify(payload));
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": crypto.randomUUID(),
      "x-hub-signature-256": await signBody(secret, body),
    },
  };
}

/** The payload of a merged pull request. */
export function mergedPullRequest(branch: string, number = 1) {
  return {
    action: "closed",
    number,
    pull_request: { number, merged: true, base: { ref: "main" }, head: { ref: branch } },
    repository: { full_name: "o/r", default_branch: "main" },
  };
}
