/**
 * The `header` backend: an authenticating gateway in front of policyd sets
 * `X-Forwarded-User` (required), `X-Forwarded-Email` and
 * `X-Forwarded-Groups` (comma-separated). The headers are believed only when
 * the TCP peer is inside `TRUSTED_PROXIES`; `X-Forwarded-For` is never
 * consulted, since any client can write it.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import type { CidrList } from "./cidr.ts";
import { type Authenticator, AuthError, type AuthRequest, type Identity } from "./types.ts";

/** The challenge of header-backend 401s: credentials come from the gateway, not the client. */
export const HEADER_CHALLENGE = 'Gateway realm="policyd"';

const MAX_FIELD = 256;
const MAX_GROUPS = 100;

/** Options of {@link createHeaderAuthenticator}. */
export interface HeaderAuthOptions {
  /** Peers whose forwarded headers are trusted. */
  trustedProxies: CidrList;
  log: Logger;
}

function field(headers: Headers, name: string): string | undefined {
  const value = headers.get(name)?.trim();
  return value ? value.slice(0, MAX_FIELD) : undefined;
}

/**
 * Creates the header authenticator.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * import { parseCidrList } from "./cidr.ts";
 * const auth = createHeaderAuthenticator({ trustedProxies: parseCidrList("127.0.0.1/32"), log });
 * const who = await auth.authenticate({
 *   headers: new Headers({ "x-forwarded-user": "alice", "x-forwarded-groups": "devs, policy-admins" }),
 *   remoteAddress: "127.0.0.1",
 * });
 * who.groups; // ["devs", "policy-admins"]
 * ```
 */
export function createHeaderAuthenticator(options: HeaderAuthOptions): Authenticator {
  const { trustedProxies, log } = options;
  const fail = (reason: string, fields: Record<string, unknown>): never => {
    log.info("authentication failed", { backend: "header", reason, ...fields });
    throw new AuthError(reason, HEADER_CHALLENGE);
  };
  const identify = (request: AuthRequest): Identity => {
    const peer = request.remoteAddress;
    if (peer === null || !trustedProxies.contains(peer)) {
      return fail("peer is not a trusted proxy", {
        peer,
        forwarded_user_present: request.headers.has("x-forwarded-user"),
      });
    }
    const id = field(request.headers, "x-forwarded-user");
    if (!id) return fail("missing X-Forwarded-User", { peer });
    const groups = [
      ...new Set(
        (request.headers.get("x-forwarded-groups") ?? "")
          .split(",")
          .map((group) => group.trim().slice(0, MAX_FIELD))
          .filter((group) => group !== ""),
      ),
    ].slice(0, MAX_GROUPS);
    const identity: Identity = { id, groups, raw: { peer } };
    const email = field(request.headers, "x-forwarded-email");
    if (email) identity.email = email;
    return identity;
  };
  return {
    name: "header",
    authenticate: (request) => Promise.resolve(request).then(identify),
  };
}
