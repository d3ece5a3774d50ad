/**
 * The example registry shipped with policyd (`registry/registry.yaml`),
 * read through `import.meta.url` so `deno compile --include` carries it.
 *
 * @module
 */

/** URL of the example registry YAML. */
export const EXAMPLE_REGISTRY_URL = new URL("../../registry/registry.yaml", import.meta.url);

/** Reads the example registry YAML text. */
export function readExampleRegistry(): Promise<string> {
  return Deno.readTextFile(EXAMPLE_REGISTRY_URL);
}
