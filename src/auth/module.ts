/**
 * The `module:<specifier>:<Export>` backend: a user-supplied authenticator
 * class loaded with dynamic import (SPEC §15.8, §15.29). The specifier splits
 * at the last `:`; a specifier without a URL scheme is a path resolved
 * against the working directory; the export is constructed with
 * `{ settings, log }` and must have an `authenticate(request)` method that
 * returns an identity or throws an error named `AuthError` (→ 401).
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type ParsedSettings, SettingsError } from "../config/area.ts";
import type { Logger } from "../log/logger.ts";
import { type Authenticator, AuthError, type AuthRequest, type Identity } from "./types.ts";

/** A parsed `module:` value. */
export interface ModuleReference {
  /** What `import()` receives: a URL (`file:`, `npm:`, `https:` …). */
  specifier: string;
  exportName: string;
}

/** What the user's class must look like. */
type AuthenticatorClass = new (options: { settings: ParsedSettings; log: Logger }) => {
  authenticate(request: AuthRequest): Promise<Identity> | Identity;
};

function settingError(message: string): SettingsError {
  return new SettingsError([{ variable: "AUTH_BACKEND", message }]);
}

/**
 * Splits `module:<specifier>:<Export>` at the last `:`; relative paths resolve against `cwd`.
 *
 * @example
 * ```ts
 * parseModuleReference("module:./auth/sso.ts:SsoAuth", "/srv").specifier; // "file:///srv/auth/sso.ts"
 * ```
 */
export function parseModuleReference(value: string, cwd: string): ModuleReference {
  const rest = value.startsWith("module:") ? value.slice("module:".length) : value;
  const colon = rest.lastIndexOf(":");
  const path = colon === -1 ? "" : rest.slice(0, colon);
  const exportName = colon === -1 ? "" : rest.slice(colon + 1);
  if (!path || !/^[A-Za-z_$][\w$]*$/.test(exportName)) {
    throw settingError(`expected module:<specifier>:<Export>, got "${value}"`);
  }
  // A scheme has two or more characters, so a Windows drive letter (C:\…) is a path.
  const hasScheme = /^[A-Za-z][A-Za-z0-9+.-]+:/.test(path);
  const specifier = hasScheme
    ? path
    : pathToFileURL(isAbsolute(path) ? path : resolve(cwd, path)).href;
  return { specifier, exportName };
}

/**
 * Imports and constructs a user authenticator. Every failure is a
 * {@link SettingsError} naming `AUTH_BACKEND`, raised at start-up.
 */
export async function loadModuleAuthenticator(
  value: string,
  options: { settings: ParsedSettings; log: Logger; cwd?: string },
): Promise<Authenticator> {
  const ref = parseModuleReference(value, options.cwd ?? Deno.cwd());
  let module: Record<string, unknown>;
  try {
    module = await import(ref.specifier);
  } catch (error) {
    throw settingError(`cannot import "${ref.specifier}": ${(error as Error).message}`);
  }
  const exported = module[ref.exportName];
  if (typeof exported !== "function") {
    throw settingError(`"${ref.specifier}" has no exported class "${ref.exportName}"`);
  }
  let instance: InstanceType<AuthenticatorClass>;
  try {
    instance = new (exported as AuthenticatorClass)({
      settings: options.settings,
      log: options.log,
    });
  } catch (error) {
    throw settingError(`cannot construct ${ref.exportName}: ${(error as Error).message}`);
  }
  if (typeof instance?.authenticate !== "function") {
    throw settingError(`${ref.exportName} has no authenticate(request) method`);
  }
  return {
    name: `module:${ref.exportName}`,
    authenticate: async (request) => {
      let identity: Identity;
      try {
        identity = await instance.authenticate(request);
      } catch (error) {
        throw asAuthError(error);
      }
      return normalize(identity, ref.exportName);
    },
  };
}

/**
 * A module cannot always import policyd's own `AuthError` (a compiled
 * binary, a package), so any error named `AuthError` counts as one (→ 401);
 * other errors are bugs and stay 500s.
 */
function asAuthError(error: unknown): unknown {
  if (error instanceof AuthError) return error;
  const candidate = error as { name?: unknown; message?: unknown; challenge?: unknown } | null;
  if (candidate?.name !== "AuthError") return error;
  const challenge = typeof candidate.challenge === "string" ? candidate.challenge : undefined;
  return new AuthError(String(candidate.message ?? "authentication failed"), challenge);
}

/** Guards the rest of the server against a malformed identity; a missing id is a bug (→ 500). */
function normalize(identity: Identity, exportName: string): Identity {
  if (typeof identity?.id !== "string" || identity.id.trim() === "") {
    throw new TypeError(`${exportName}.authenticate() returned an identity without an id`);
  }
  const groups = Array.isArray(identity.groups)
    ? identity.groups.filter((g): g is string => typeof g === "string")
    : [];
  const raw = identity.raw && typeof identity.raw === "object" ? identity.raw : {};
  const result: Identity = { id: identity.id, groups, raw };
  if (typeof identity.email === "string") result.email = identity.email;
  return result;
}
