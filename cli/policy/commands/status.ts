/**
 * `policy status [--json]`: always exits 0.
 *
 * @module
 */

import { join } from "node:path";
import { clientFromConfig } from "../api_client.ts";
import { DEFAULT_SERVER_URL, loadConfig, resolveConfig } from "../config.ts";
import type { ResolvedConfig } from "../config.ts";
import { ClientError, EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { runtimeDependencies } from "../pyproject.ts";
import { renderStatus, statusSections } from "../status.ts";
import type { StatusInputs } from "../status.ts";
import { git, gitHooksDir } from "../git.ts";
import { frameworkHookActive, frameworkHookConfigured } from "../install/precommit_framework.ts";
import { precommitInstalled } from "../install/precommit.ts";
import { claudeHooksInstalled } from "../install/claude_settings.ts";
import { indexSection } from "../index_status.ts";

/** Options of `status`. */
export interface StatusOptions {
  json: boolean;
}

function readDeps(root: string): StatusInputs["dependencies"] {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(root, "pyproject.toml"));
  } catch {
    return null;
  }
  try {
    return runtimeDependencies(text);
  } catch (error) {
    return error as Error;
  }
}

/** Runs `status`. A broken config is reported in the server section, not thrown. */
export async function status(options: StatusOptions, io: Io): Promise<number> {
  let config: ResolvedConfig;
  let client: StatusInputs["client"];
  try {
    config = await loadConfig(io.cwd);
    client = clientFromConfig(config, { source: "check", env: io.env, fetch: io.fetch });
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    config ??= await resolveConfig({}, io.cwd, null);
    client = error;
  }
  const hooksDir = await gitHooksDir(config.root);
  const top = await git(["rev-parse", "--show-toplevel"], config.root);
  const framework = hooksDir === null || top.code !== 0 ||
      !frameworkHookConfigured(top.stdout.trim())
    ? null
    : frameworkHookActive(hooksDir)
    ? "active"
    : "configured";
  const sections = await statusSections({
    serverUrl: config.server_url ?? DEFAULT_SERVER_URL,
    client,
    precommitInstalled: hooksDir !== null && precommitInstalled(hooksDir),
    precommitFramework: framework,
    claudeHooksInstalled: claudeHooksInstalled(config.root),
    dependencies: readDeps(config.root),
  });
  sections.push(indexSection(config.root, config.server_url ?? DEFAULT_SERVER_URL, io.env));
  io.stdout(options.json ? JSON.stringify({ sections }, null, 2) + "\n" : renderStatus(sections));
  return EXIT.OK;
}
