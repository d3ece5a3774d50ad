/**
 * How this client was built. `tools/bundle_client.ts` sets {@link BUNDLED}
 * and {@link BUILT_FROM} in the bundle it writes (`deno task bundle`,
 * `deno task install`); the sources say false and null.
 *
 * @module
 */

/** True in the bundled client (one JavaScript tree run with `--no-config`), false from the sources. */
export const BUNDLED: boolean = false;

/** The commit of the checkout the bundle was built from (null from the sources, or unknown). */
export const BUILT_FROM: string | null = null;

/** The file name of the bundle's entry (`dist/policy/policy.js`). */
export const BUNDLE_ENTRY_NAME = "policy.js";

/**
 * The directory beside the bundle's entry holding its eager copy, which the
 * git shim runs with {@link EAGER_V8_FLAGS} (tools/bundle_client.ts).
 */
export const EAGER_DIR = "eager";

/** V8's eager compilation, for the eager copy. */
export const EAGER_V8_FLAGS = "--v8-flags=--no-lazy";
