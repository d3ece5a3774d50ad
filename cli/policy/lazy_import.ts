/**
 * `import()` that Deno does not follow before the program starts. Deno builds
 * the module graph of the entry point with every `import("./literal.ts")` in
 * it, reading and analysing each local module a command might load: for
 * `policy` that was the whole client, about as much start-up time as an
 * empty script (docs/performance.md, "Client start-up"). A specifier
 * computed at run time is resolved only when the import runs. Callers name
 * the module twice, once as its type, and `deno compile` must be told about
 * it (`tools/compile.ts`; `lazy_import_test.ts` checks the list).
 *
 * @module
 */

/**
 * Imports `url` when called; `T` is the module's type. A string is a bare
 * specifier of the import map (an npm package): even an npm package that is
 * never imported makes Deno set up `node_modules` when the module graph that
 * names it is loaded.
 *
 * @example
 * ```ts
 * import { lazyImport } from "./lazy_import.ts";
 * const { CLIENT_VERSION } = await lazyImport<typeof import("./version.ts")>(
 *   new URL("./version.ts", import.meta.url),
 * );
 * ```
 */
export function lazyImport<T>(url: URL | string): Promise<T> {
  return import(typeof url === "string" ? url : url.href);
}
