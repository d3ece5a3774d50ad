/**
 * `policy uninstall`: removes the pre-commit shim (restoring a chained
 * foreign hook), every agent's hook registration and MCP server entry (ours
 * only), the machine-specific `.claude/settings.local.json` entries and the
 * CLAUDE.md section; keeps `.policy.toml`.
 *
 * @module
 */

import { dirname } from "node:path";
import { findConfigFile } from "../config.ts";
import { EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { gitHooksDir } from "../git.ts";
import { uninstallPrecommit } from "../install/precommit.ts";
import { uninstallAgentHooks } from "../install/agent_hooks.ts";
import { uninstallMcpServer } from "../install/mcp_config.ts";
import { uninstallClaudeMd } from "../install/claude_md.ts";
import { AGENTS } from "../agents/names.ts";
import { AGENT_LABELS } from "./init.ts";

/** Runs `uninstall`. */
export async function uninstall(io: Io): Promise<number> {
  // Only the location matters here: a broken .policy.toml must not prevent uninstalling.
  const configPath = findConfigFile(io.cwd);
  const root = configPath ? dirname(configPath) : io.cwd;
  const hooksDir = await gitHooksDir(root);
  const steps: Array<[string, boolean]> = [
    ["pre-commit hook", hooksDir !== null && uninstallPrecommit(hooksDir)],
  ];
  for (const agent of AGENTS) {
    steps.push([`${AGENT_LABELS[agent]} hooks`, uninstallAgentHooks(root, agent)]);
  }
  for (const agent of AGENTS) {
    steps.push([`${AGENT_LABELS[agent]} MCP server`, uninstallMcpServer(root, agent)]);
  }
  steps.push(["CLAUDE.md section", uninstallClaudeMd(root)]);
  for (const [what, removed] of steps) {
    io.stdout(`${removed ? "removed  " : "absent   "} ${what}\n`);
  }
  io.stdout(`kept      ${configPath ?? ".policy.toml (none found)"}\n`);
  return EXIT.OK;
}
