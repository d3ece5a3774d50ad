/**
 * The `apikey` backend: a placeholder (seed "Authentication"). Selecting it
 * in org mode starts the server, but every authenticated request fails with
 * 501 and an error log line, so a misconfigured deployment fails loudly
 * rather than quietly letting anyone in or looking like a bad credential.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import { type Authenticator, AuthNotImplementedError } from "./types.ts";

const MESSAGE =
  'authentication backend "apikey" is not implemented; set AUTH_BACKEND to header, webhook or module:<specifier>:<Export>';

/**
 * Creates the placeholder authenticator; it warns once at start-up.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const auth = createApiKeyAuthenticator(log);
 * const request = { headers: new Headers({ "x-api-key": "k3y" }), remoteAddress: null };
 * await auth.authenticate(request); // rejects with AuthNotImplementedError (→ 501)
 * ```
 */
export function createApiKeyAuthenticator(log: Logger): Authenticator {
  log.warn("AUTH_BACKEND=apikey is a placeholder: every authenticated request will fail with 501");
  return {
    name: "apikey",
    authenticate() {
      log.error("authentication backend not implemented", { backend: "apikey" });
      return Promise.reject(new AuthNotImplementedError(MESSAGE));
    },
  };
}
