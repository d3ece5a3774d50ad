/**
 * policyd as a library: the pure evaluation core, the registry compiler and
 * validator, the server composition root and the HTTP app factory. The
 * workflow docs library is exported separately as `./workflows`.
 *
 * @example
 * ```ts
 * import { buildServer, loadSettings, createLogger } from "./mod.ts";
 * const built = await buildServer(loadSettings(Deno.env.toObject()), { log: createLogger() });
 * ```
 *
 * @module
 */
export * from "./core/types.ts";
export { evaluate, factsVerdict, registryVerdict } from "./core/evaluate.ts";
export { normalizeName } from "./core/names.ts";
export { compileRegistry, createSnapshot } from "./registry/compile.ts";
export { validateRegistry, validateRule } from "./registry/schema.ts";
export { loadSettings, type Settings, SettingsError } from "./settings.ts";
export { createLogger, type Logger } from "./log/logger.ts";
export { buildServer, type BuiltServer, startServer, StartupError } from "./server.ts";
export { createApp } from "./http/app.ts";
export { VERSION } from "./version.ts";
