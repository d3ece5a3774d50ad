/**
 * `policy precommit`: the command the git shim runs.
 *
 * @module
 */

import { clientFromConfig } from "../api_client.ts";
import type { ApiClient } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import { ClientError, oneLine } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { stagedFile } from "../git.ts";
import { runPrecommit } from "../hooks/precommit.ts";

/** Runs the pre-commit check; any failure to check blocks with a one-line reason (exit 1). */
export async function precommit(io: Io): Promise<number> {
  let config;
  try {
    config = loadConfig(io.cwd);
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    io.stderr(`policy precommit: commit blocked: ${oneLine(error.message)}\n`);
    return 1;
  }
  let client: ApiClient | ClientError;
  try {
    client = clientFromConfig(config, { source: "precommit", env: io.env, fetch: io.fetch });
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    client = error;
  }
  const result = await runPrecommit({
    staged: await stagedFile(config.root, "pyproject.toml"),
    client,
  });
  io.stderr(result.stderr);
  return result.code;
}
