/**
 * The `webhook` backend: the caller's bearer token is POSTed as `{token}` to
 * `AUTH_VERIFY_URL`; a 2xx JSON `{id, email?, groups?}` is the identity.
 * Everything else fails closed with 401: a non-2xx answer, a body that is
 * not that JSON, a redirect, a time-out, a connection error. Positive answers
 * are cached briefly under the SHA-256 of the token, so the token itself is
 * never kept, and it is never logged; a token the verifier rejected is
 * remembered for a few seconds too (issue 34), so repeating it costs no
 * verifier call. Only a 4xx counts as a rejection: an unreachable or failing
 * verifier, or an answer that is not an identity, is never cached.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Logger } from "../log/logger.ts";
import { type Authenticator, AuthError, type AuthRequest, type Identity } from "./types.ts";

/** Longest a verifier call may take, body included. */
export const DEFAULT_VERIFY_TIMEOUT_MS = 3000;
/** Longest a positive answer is reused. */
export const DEFAULT_CACHE_TTL_MS = 60_000;
/** How long a token the verifier rejected is answered 401 without asking again. */
export const REJECTION_TTL_MS = 10_000;
const MAX_CACHE_ENTRIES = 10_000;
const MAX_TOKEN_LENGTH = 8192;
const MAX_BODY_CHARS = 64 * 1024;

/** The verifier's definite "no" (a 4xx): the only failure remembered. */
const REJECTED = "verifier rejected the token";

const BEARER_CHALLENGE = 'Bearer realm="policyd"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="policyd", error="invalid_token"';

const verifierAnswer = z.looseObject({
  id: z.string().trim().min(1).max(256),
  email: z.string().trim().max(256).nullish(),
  groups: z.array(z.string().trim().min(1).max(256)).max(100).nullish(),
});

/** Options of {@link createWebhookAuthenticator}. */
export interface WebhookAuthOptions {
  verifyUrl: string;
  log: Logger;
  timeoutMs?: number;
  cacheTtlMs?: number;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  now?: () => number;
}

/** The bearer token of a request, or undefined. */
export function bearerToken(headers: Headers): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  return match?.[1];
}

/** The verifier's address without credentials, query or fragment, for logs. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * Creates the webhook authenticator.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const auth = createWebhookAuthenticator({ verifyUrl: "https://auth.example/verify", log });
 * await auth.authenticate({ headers: new Headers({ authorization: "Bearer t0ken" }), remoteAddress: null });
 * ```
 */
export function createWebhookAuthenticator(options: WebhookAuthOptions): Authenticator {
  const { verifyUrl, log } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS;
  const ttlMs = Math.min(options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS, DEFAULT_CACHE_TTL_MS);
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const verifier = describeUrl(verifyUrl);
  const cache = new Map<string, { identity: Identity; expires: number }>();
  const rejected = new Map<string, number>();
  const inFlight = new Map<string, Promise<Identity>>();

  const reject = (reason: string, fields: Record<string, unknown> = {}): never => {
    log.info("authentication failed", { backend: "webhook", reason, ...fields });
    throw new AuthError(reason, INVALID_TOKEN_CHALLENGE);
  };

  const remember = (key: string, identity: Identity) => {
    if (ttlMs <= 0) return;
    cache.delete(key);
    if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { identity, expires: now() + ttlMs });
  };

  const verify = async (token: string): Promise<Identity> => {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(verifyUrl, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ token }),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const name = (error as Error)?.name ?? "Error";
      log.warn("auth verifier unreachable", { verifier, error: name, timeout_ms: timeoutMs });
      return reject("verifier unreachable");
    }
    if (!response.ok) {
      if (response.status >= 500) {
        return reject("verifier failed", { verifier_status: response.status });
      }
      return reject(REJECTED, { verifier_status: response.status });
    }
    let body: unknown;
    try {
      if (text.length > MAX_BODY_CHARS) throw new RangeError("answer too large");
      body = JSON.parse(text);
    } catch {
      log.warn("auth verifier answered with invalid JSON", { verifier, status: response.status });
      return reject("verifier answer is not JSON");
    }
    const parsed = verifierAnswer.safeParse(body);
    if (!parsed.success) {
      log.warn("auth verifier answered with an invalid identity", {
        verifier,
        issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      return reject("verifier answer is not an identity");
    }
    const { id, email, groups, token: _echoed, ...extras } = parsed.data;
    const identity: Identity = { id, groups: [...new Set(groups ?? [])], raw: extras };
    if (email) identity.email = email;
    return identity;
  };

  const authenticate = async (request: AuthRequest): Promise<Identity> => {
    const token = bearerToken(request.headers);
    if (!token) {
      log.info("authentication failed", { backend: "webhook", reason: "missing bearer token" });
      throw new AuthError("missing bearer token", BEARER_CHALLENGE);
    }
    if (token.length > MAX_TOKEN_LENGTH) return reject("bearer token too long");
    const key = createHash("sha256").update(token).digest("hex");
    const hit = cache.get(key);
    if (hit && hit.expires > now()) return hit.identity;
    if (hit) cache.delete(key);
    const refusedUntil = rejected.get(key);
    if (refusedUntil !== undefined) {
      if (refusedUntil > now()) return reject(REJECTED, { cached: true });
      rejected.delete(key);
    }
    let pending = inFlight.get(key);
    if (!pending) {
      pending = verify(token)
        .then((identity) => {
          remember(key, identity);
          return identity;
        }, (error) => {
          // The verifier's "no" is remembered briefly; its absence is not.
          if (error instanceof AuthError && error.message === REJECTED) {
            if (rejected.size >= MAX_CACHE_ENTRIES) rejected.delete(rejected.keys().next().value!);
            rejected.set(key, now() + REJECTION_TTL_MS);
          }
          throw error;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return await pending;
  };

  return { name: "webhook", authenticate };
}
