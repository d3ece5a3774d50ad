/**
 * HTTP Basic credentials read as a bearer token: installers (pip, uv,
 * Poetry, PDM) send the credentials of an index URL or keyring as Basic
 * authentication, so a request whose Basic password is a token is
 * authenticated as if it had sent `Authorization: Bearer <token>`. The user
 * name is ignored. A refusal also offers the Basic scheme, so installers
 * that wait for a challenge send their credentials.
 *
 * @module
 */
import { type Authenticator, AuthError, type AuthRequest } from "./types.ts";

/** The token of `Authorization: Basic base64(user:token)`; undefined for anything else. */
export function basicPassword(headers: Headers): string | undefined {
  const match = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  if (!match) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]), (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  const password = colon < 0 ? "" : decoded.slice(colon + 1);
  return password || undefined;
}

/**
 * Wraps an authenticator so Basic credentials count as a bearer token.
 *
 * @example
 * ```ts
 * import { anonymousAuthenticator } from "./types.ts";
 * const auth = withBasicTokens(anonymousAuthenticator);
 * const headers = new Headers({ authorization: `Basic ${btoa("pip:t0ken")}` });
 * await auth.authenticate({ headers, remoteAddress: null }); // as `Bearer t0ken`
 * ```
 */
export function withBasicTokens(inner: Authenticator): Authenticator {
  return {
    name: inner.name,
    async authenticate(request: AuthRequest) {
      const token = basicPassword(request.headers);
      let effective = request;
      if (token !== undefined) {
        const headers = new Headers(request.headers);
        headers.set("authorization", `Bearer ${token}`);
        effective = { ...request, headers };
      }
      try {
        return await inner.authenticate(effective);
      } catch (error) {
        if (error instanceof AuthError && !/Basic/i.test(error.challenge)) {
          throw new AuthError(error.message, `${error.challenge}, Basic realm="policyd"`);
        }
        throw error;
      }
    },
  };
}
