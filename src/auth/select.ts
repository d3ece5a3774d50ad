/**
 * Selects the authenticator from the settings, once at start-up (SPEC §10):
 * `AUTH_ENABLED=false` is single-user mode, anonymous `local` whatever
 * `AUTH_BACKEND` says; otherwise `header`, `webhook`, `apikey` or
 * `module:<specifier>:<Export>`. The rules live in the `auth` settings area
 * (`settings.ts`); a violation is a `SettingsError` naming the variable,
 * raised before the server listens.
 *
 * @module
 */
import { requireOptions, type Settings } from "../config/settings.ts";
import type { Logger } from "../log/logger.ts";
import { createApiKeyAuthenticator } from "./apikey.ts";
import { createHeaderAuthenticator } from "./header.ts";
import { loadModuleAuthenticator } from "./module.ts";
import { authArea } from "./settings.ts";
import { anonymousAuthenticator, type Authenticator } from "./types.ts";
import { createWebhookAuthenticator } from "./webhook.ts";

/**
 * Creates the configured authenticator.
 *
 * @example
 * ```ts
 * import { loadSettings } from "../config/settings.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const auth = await createAuthenticator(loadSettings({ AUTH_ENABLED: "true" }), log);
 * auth.name; // "header"
 * ```
 */
export async function createAuthenticator(settings: Settings, log: Logger): Promise<Authenticator> {
  const options = requireOptions(authArea, settings);
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
