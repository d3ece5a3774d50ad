/**
 * The policy index rule of the agent gate: a command that points an installer at another package
 * index (`-i`, `--index-url`, `--extra-index-url`, `--default-index`, `PIP_INDEX_URL=` …) is
 * denied in a project whose installers resolve through policyd's own index (`/simple/` or
 * `/p/<project>/simple/` under `server_url`), since it would route around it. Path and text tests
 * only.
 *
 * @module
 */

import { joinPath } from "../os_path.ts";

/** The URL without credentials, query or trailing slashes, lower-cased scheme and host. */
function bare(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/+$/, "");
  } catch {
    return url.replace(/\/+$/, "");
  }
}

/** True when `url` is policyd's own index: `server_url/simple` or `server_url/p/<project>/simple`. */
export function isPolicyIndex(url: string, serverUrl: string): boolean {
  const base = bare(serverUrl);
  const target = bare(url);
  if (!target.startsWith(base)) return false;
  return /^\/(simple|p\/[^/]+\/simple)(\/.*)?$/.test(target.slice(base.length));
}

/** Files where `policy init --index` and users point installers at an index. */
const INDEX_CONFIGS = ["pyproject.toml", "uv.toml", "pip.conf", ".venv/pip.conf", "poetry.toml"];
const INDEX_ENV = ["PIP_INDEX_URL", "UV_INDEX_URL", "UV_DEFAULT_INDEX"];

/**
 * True when the project resolves through policyd's index: one of its installer configurations
 * (or the agent's environment) names `server_url/simple` or `server_url/p/…/simple`.
 */
export function usesPolicyIndex(
  root: string,
  serverUrl: string,
  readFile: (path: string) => string | null,
  env: (name: string) => string | undefined = () => undefined,
): boolean {
  if (INDEX_ENV.some((name) => isPolicyIndex(env(name) ?? "", serverUrl))) return true;
  const base = serverUrl.replace(/\/+$/, "");
  const named = new RegExp(
    `${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(simple|p/[^/"'\\s]+/simple)`,
  );
  return INDEX_CONFIGS.some((file) => named.test(readFile(joinPath(root, file)) ?? ""));
}

/** The deny message for commands pointing installers at other indexes. */
export function foreignIndexMessage(urls: string[], serverUrl: string): string {
  const shown = [...new Set(urls)].map((u) => u || "(an empty index URL)").join(", ");
  return `This command points the installer at another package index (${shown}). This project ` +
    `installs through the policy index at ${serverUrl}/simple/, which decides every version; ` +
    `run the command without the index option, or ask a human to add the index to the policy.`;
}
