/**
 * Selects the authenticator from the settings, once at start-up (SPEC §10):
 * `AUTH_ENABLED=false` is single-user mode, anonymous `local` whatever
 * `AUTH_BACKEND` says; otherwise `header`, `webhook`, `apikey` or
 * `module:<specifier>:<Export>`. The rules live in the `auth` settings area
 * (`settings.ts`), checked when the root computes the options; a `module:`
 * class that cannot be loaded is a `SettingsError` naming `AUTH_BACKEND`,
 * raised before the server listens.
 *
 * @module
 */
import type { ParsedSettings } from "../config/area.ts";
import type { Logger } from "../log/logger.ts";
import { createApiKeyAuthenticator } from "./apikey.ts";
import { createHeaderAuthenticator } from "./header.ts";
import { loadModuleAuthenticator } from "./module.ts";
import type { AuthOptions } from "./settings.ts";
import { anonymousAuthenticator, type Authenticator } from "./types.ts";
import { createWebhookAuthenticator } from "./webhook.ts";

/**
 * Creates the configured authenticator.
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import { authArea } from "./settings.ts";
 * const env = { AUTH_ENABLED: "true" };
 * const auth = await createAuthenticator(optionsFromEnv(authArea, env), { log, settings: env });
 * auth.name; // "header"
 * ```
 */
export async function createAuthenticator(
  options: AuthOptions,
  deps: {
    log: Logger;
    /** The parsed settings, for a `module:` class (SPEC §15.29). */
    settings: ParsedSettings;
  },
): Promise<Authenticator> {
  const { log, settings } = deps;
  if (!options.enabled) return anonymousAuthenticator;
  switch (options.backend) {
    case "header":
      log.info("authentication: header backend", {
        trusted_proxies: options.trustedProxies.blocks,
      });
      return createHeaderAuthenticator({ trustedProxies: options.trustedProxies, log });
    case "webhook":
      log.info("authentication: webhook backend");
      return createWebhookAuthenticator({ verifyUrl: options.verifyUrl, log });
    case "apikey":
      return createApiKeyAuthenticator(log);
    case "module": {
      const authenticator = await loadModuleAuthenticator(options.specifier, { settings, log });
      log.info("authentication: module backend", { backend: authenticator.name });
      return authenticator;
    }
  }
}
