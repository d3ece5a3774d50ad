/**
 * Registers the policyd MCP server (`policy mcp`, stdio) in each agent's
 * project MCP configuration, and removes it on uninstall. Formats and
 * sources in docs/hooks.md ("MCP registrations").
 *
 * @module
 */

import { join } from "node:path";
import type { Agent } from "../agents/payload.ts";
import { removeFile, updateJsonFile } from "./json_file.ts";
import type { Json } from "./json_file.ts";
import type { StepResult } from "./precommit.ts";
import { readTextOrNull } from "../read_text.ts";

/** Name of our server in every MCP configuration. */
export const MCP_SERVER_NAME = "policyd";
/** The server's command: `policy mcp` from PATH. */
export const MCP_COMMAND = { command: "policy", args: ["mcp"] };

/** Each agent's project MCP file and the key holding its servers. */
export const MCP_FILES: Record<Agent, { file: string; key: string; entry: Json }> = {
  claude: { file: ".mcp.json", key: "mcpServers", entry: { ...MCP_COMMAND } },
  cursor: { file: ".cursor/mcp.json", key: "mcpServers", entry: { ...MCP_COMMAND } },
  gemini: { file: ".gemini/settings.json", key: "mcpServers", entry: { ...MCP_COMMAND } },
  copilot: { file: ".vscode/mcp.json", key: "servers", entry: { type: "stdio", ...MCP_COMMAND } },
  codex: { file: ".codex/config.toml", key: "mcp_servers", entry: { ...MCP_COMMAND } },
};

const TOML_BEGIN = "# policyd:begin (written by `policy init`; `policy uninstall` removes it)";
const TOML_END = "# policyd:end";
const TOML_BLOCK = `${TOML_BEGIN}
[mcp_servers.${MCP_SERVER_NAME}]
command = "policy"
args = ["mcp"]
${TOML_END}
`;

function withoutTomlBlock(text: string): string {
  const start = text.indexOf(TOML_BEGIN);
  const end = text.indexOf(TOML_END);
  if (start < 0 || end < start) return text;
  return (text.slice(0, start) + text.slice(end + TOML_END.length).replace(/^\n/, ""))
    .replace(/\n{3,}$/, "\n\n");
}

function installCodexToml(path: string): boolean {
  const existing = readTextOrNull(path);
  if (existing?.includes(TOML_BLOCK)) return false;
  const base = existing === null ? "" : withoutTomlBlock(existing);
  if (/^\[mcp_servers\.policyd\]/m.test(base)) return false; // the user's own entry wins
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, base + (base && !base.endsWith("\n") ? "\n" : "") + TOML_BLOCK);
  return true;
}

function uninstallCodexToml(path: string): boolean {
  const existing = readTextOrNull(path);
  if (existing === null || !existing.includes(TOML_BEGIN)) return false;
  const rest = withoutTomlBlock(existing);
  if (rest.trim() === "") removeFile(path);
  else Deno.writeTextFileSync(path, rest);
  return true;
}

/** Registers our MCP server for `agent`; idempotent, never replacing a foreign `policyd` entry. */
export function installMcpServer(root: string, agent: Agent): StepResult {
  const { file, key, entry } = MCP_FILES[agent];
  const path = join(root, file);
  if (agent === "codex") return { path, written: installCodexToml(path) };
  const written = updateJsonFile(path, (settings) => {
    const servers = { ...(settings[key] as Json | undefined ?? {}) };
    if (servers[MCP_SERVER_NAME] !== undefined && !isOurs(servers[MCP_SERVER_NAME])) {
      return settings;
    }
    servers[MCP_SERVER_NAME] = entry;
    return { ...settings, [key]: servers };
  });
  return { path, written };
}

function isOurs(value: unknown): boolean {
  const entry = value as Json | null;
  return entry?.command === "policy" && JSON.stringify(entry.args) === JSON.stringify(["mcp"]);
}

/** Removes our MCP server registration for `agent`; returns whether anything changed. */
export function uninstallMcpServer(root: string, agent: Agent): boolean {
  const { file, key } = MCP_FILES[agent];
  const path = join(root, file);
  if (agent === "codex") return uninstallCodexToml(path);
  return updateJsonFile(path, (settings) => {
    const servers = { ...(settings[key] as Json | undefined ?? {}) };
    if (!isOurs(servers[MCP_SERVER_NAME])) return settings;
    delete servers[MCP_SERVER_NAME];
    const after = { ...settings, [key]: servers };
    if (Object.keys(servers).length === 0) delete after[key];
    return after;
  });
}
