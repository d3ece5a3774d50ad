/**
 * Authentication: an authenticator turns a request into an identity or
 * throws {@link AuthError}. It does not authorise; operator checks live in
 * the HTTP layer (SPEC §10).
 *
 * @module
 */

/** An authenticated principal (seed "Identity"). */
export interface Identity {
  id: string;
  email?: string;
  groups: string[];
  raw: Record<string, unknown>;
}

/** What an authenticator sees of a request. */
export interface AuthRequest {
  headers: Headers;
  /** The TCP peer address, when the server knows it. */
  remoteAddress: string | null;
}

/** Authenticates requests. */
export interface Authenticator {
  /** Resolves to an identity, or throws AuthError (→ 401). */
  authenticate(request: AuthRequest): Promise<Identity>;
  /** Short name for `/health` (`anonymous`, `header`, …). */
  readonly name: string;
}

/** Authentication failed; the HTTP layer answers 401 with `WWW-Authenticate`. */
export class AuthError extends Error {
  constructor(message: string, readonly challenge = 'Bearer realm="policyd"') {
    super(message);
    this.name = "AuthError";
  }
}

/**
 * The configured backend cannot authenticate anyone (the `apikey`
 * placeholder); the HTTP layer answers 501 so a misconfigured deployment
 * fails loudly instead of looking like a bad credential.
 */
export class AuthNotImplementedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthNotImplementedError";
  }
}

/** The single-user identity. */
export const LOCAL_IDENTITY: Identity = Object.freeze({ id: "local", groups: [], raw: {} });

/** Single-user mode: everyone is `local` (SPEC §10). */
export const anonymousAuthenticator: Authenticator = {
  name: "anonymous",
  authenticate: () => Promise.resolve(LOCAL_IDENTITY),
};
