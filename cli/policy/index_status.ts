/**
 * The `index` line of `policy status`: which installers of the project
 * resolve through policyd's index (issue 28 point 5).
 *
 * @module
 */

import { indexResolution } from "./install/index_config.ts";
import type { Section } from "./status.ts";

/**
 * The section: `ok` when uv, Poetry, PDM or pip resolve through policyd,
 * `warn` (with the command that fixes it) when none does.
 */
export function indexSection(
  root: string,
  serverUrl: string,
  env: (name: string) => string | undefined,
): Section {
  const { through, elsewhere } = indexResolution(root, serverUrl, env);
  if (!through.length) {
    return {
      name: "index",
      flag: "warn",
      detail: "no installer resolves through policyd's index (run `policy init --index`)",
    };
  }
  return {
    name: "index",
    flag: "ok",
    detail: `through policyd: ${through.join(", ")}` +
      (elsewhere.length ? `; not: ${elsewhere.join(", ")}` : ""),
  };
}
