/**
 * How this client was built. `tools/bundle_client.ts` sets {@link BUNDLED}
 * in the bundle it writes (`deno task bundle`, `deno task install`); the
 * sources say false.
 *
 * @module
 */

/** True in the bundled client (one JavaScript tree run with `--no-config`), false from the sources. */
export const BUNDLED: boolean = false;
