/**
 * Selects the authenticator from the settings, once at start-up (SPEC §10):
 * `AUTH_ENABLED=false` is single-user mode, anonymous `local` whatever
 * `AUTH_BACKEND` says; otherwise `header`, `webhook`, `apikey` or
 * `module:<specifier>:<Export>`. Configuration errors are
 * {@link SettingsError}s naming the variable, raised before the server listens.
 *
 * @module
 */
import { type Settings, SettingsError } from "../config/settings.ts";
import type { Logger } from "../log/logger.ts";
import { createApiKeyAuthenticator } from "./apikey.ts";
import { parseCidrList } from "./cidr.ts";
import { createHeaderAuthenticator } from "./header.ts";
import { loadModuleAuthenticator } from "./module.ts";
import { anonymousAuthenticator, type Authenticator } from "./types.ts";
import { createWebhookAuthenticator } from "./webhook.ts";

/**
 * Creates the configured authenticator.
 *
 * @example
 * ```ts
 * const auth = await createAuthenticator(loadSettings({ AUTH_ENABLED: "true" }), log);
 * auth.name; // "header"
 * ```
 */
export async function createAuthenticator(settings: Settings, log: Logger): Promise<Authenticator> {
  if (!settings.AUTH_ENABLED) return anonymousAuthenticator;
  const backend = settings.AUTH_BACKEND;
  if (backend === "header") {
    let trustedProxies;
    try {
      trustedProxies = parseCidrList(settings.TRUSTED_PROXIES);
    } catch (error) {
      throw new SettingsError([{ variable: "TRUSTED_PROXIES", message: (error as Error).message }]);
    }
    if (trustedProxies.blocks.length === 0) {
      throw new SettingsError([
        {
          variable: "TRUSTED_PROXIES",
          message: "the header backend needs at least one CIDR block",
        },
      ]);
    }
    log.info("authentication: header backend", { trusted_proxies: trustedProxies.blocks });
    return createHeaderAuthenticator({ trustedProxies, log });
  }
  if (backend === "webhook") {
    if (!settings.AUTH_VERIFY_URL) {
      throw new SettingsError([
        { variable: "AUTH_VERIFY_URL", message: "required when AUTH_BACKEND=webhook" },
      ]);
    }
    if (!/^https?:$/.test(new URL(settings.AUTH_VERIFY_URL).protocol)) {
      throw new SettingsError([{
        variable: "AUTH_VERIFY_URL",
        message: "expected an http(s) URL",
      }]);
    }
    log.info("authentication: webhook backend");
    return createWebhookAuthenticator({ verifyUrl: settings.AUTH_VERIFY_URL, log });
  }
  if (backend === "apikey") return createApiKeyAuthenticator(log);
  const authenticator = await loadModuleAuthenticator(backend, { settings, log });
  log.info("authentication: module backend", { backend: authenticator.name });
  return authenticator;
}
