/**
 * `policy init`: writes `.policy.toml` (when absent) and installs the git
 * pre-commit shim (or, with `--precommit-framework`, policyd's hook in
 * `.pre-commit-config.yaml`), the hooks and MCP registrations of the chosen agents
 * (`--agents`, default claude) and the CLAUDE.md section. Every step is
 * idempotent: a second run writes nothing, except migrating old entries
 * (absolute commands in committed files) to the portable `policy` command.
 *
 * @module
 */

import { basename, dirname, join, relative } from "node:path";
import { CONFIG_FILE, DEFAULT_SERVER_URL, findConfigFile, loadConfig } from "../config.ts";
import { ClientError, EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { git, gitHooksDir } from "../git.ts";
import { projectName } from "../pyproject.ts";
import { hookCommand, onPath } from "../install/command.ts";
import { installPrecommit, uninstallPrecommit } from "../install/precommit.ts";
import { frameworkHookActive, installFrameworkHook } from "../install/precommit_framework.ts";
import {
  installClaudeHooks,
  settingsPath,
  uninstallClaudeHooks,
} from "../install/claude_settings.ts";
import { installAgentHooks } from "../install/agent_hooks.ts";
import { installMcpServer } from "../install/mcp_config.ts";
import { installClaudeMd } from "../install/claude_md.ts";
import type { Agent } from "../agents/names.ts";
import { installIndexConfig, policyIndexUrl } from "../install/index_config.ts";
import { readTextOrNull } from "../read_text.ts";

/** How init names each agent in its report. */
export const AGENT_LABELS: Record<Agent, string> = {
  claude: "Claude Code",
  cursor: "Cursor",
  gemini: "Gemini CLI",
  copilot: "GitHub Copilot",
  codex: "Codex CLI",
};

/** Options of `init`, built from flags. */
export interface InitOptions {
  yes: boolean;
  serverUrl?: string;
  project?: string;
  mode?: "single-user" | "org";
  /** Agents whose hooks (and MCP registrations) to install; default `["claude"]`. */
  agents: Agent[];
  /** Install agent hooks at all (`--no-claude-hooks` turns them off). */
  claudeHooks: boolean;
  /** Register the MCP server in the agents' project MCP configuration. */
  mcp: boolean;
  precommit: boolean;
  /**
   * Put the hook into the pre-commit framework's `.pre-commit-config.yaml`
   * instead of installing the git shim (which is removed if present).
   */
  precommitFramework?: boolean;
  claudeMd: boolean;
  /** Point the project's installers (uv, Poetry, PDM, pip) at the policy index. */
  index?: boolean;
}

/** The `.policy.toml` written by init. */
export function configText(project: string, serverUrl: string, mode: string): string {
  const open = mode === "single-user";
  return `# policyd client configuration; see docs/client.md
project = ${JSON.stringify(project)}
server_url = ${JSON.stringify(serverUrl)}
mode = ${JSON.stringify(mode)}
# fail_open = ${open}               # default: true in single-user mode, false in org mode
# auto_request_approval = ${open}   # default: true in single-user mode, false in org mode
# api_key_env_var = "POLICY_API_KEY"  # org mode: variable holding the bearer token
`;
}

async function confirm(io: Io, root: string): Promise<boolean> {
  if (!io.stdinIsTerminal()) {
    throw new ClientError("usage", "init needs --yes when standard input is not a terminal");
  }
  io.stdout(`Set up policyd in ${root}? [y/N] `);
  const answer = ((await io.readLine()) ?? "").trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

function report(io: Io, what: string, path: string, written: boolean, note?: string): void {
  io.stdout(`${written ? "wrote    " : "unchanged"} ${what}: ${path}${note ? ` (${note})` : ""}\n`);
}

/** Runs `init`. */
export async function init(options: InitOptions, io: Io): Promise<number> {
  const existing = findConfigFile(io.cwd);
  const root = existing ? existing.slice(0, -CONFIG_FILE.length - 1) : io.cwd;
  if (!options.yes && !(await confirm(io, root))) {
    io.stdout("Nothing changed.\n");
    return EXIT.OK;
  }
  const configPath = join(root, CONFIG_FILE);
  if (existing === null) {
    const project = options.project ??
      projectName(readTextOrNull(join(root, "pyproject.toml")), basename(root) || "default");
    Deno.writeTextFileSync(
      configPath,
      configText(project, options.serverUrl ?? DEFAULT_SERVER_URL, options.mode ?? "single-user"),
    );
    report(io, "config", configPath, true);
  } else {
    const flags = options.serverUrl || options.project || options.mode;
    report(
      io,
      "config",
      configPath,
      false,
      flags ? "exists; edit it to change settings" : undefined,
    );
  }
  const config = await loadConfig(root);
  const portable = onPath("policy", io.env("PATH"));

  if (options.precommit) {
    const hooksDir = await gitHooksDir(root);
    const top = await git(["rev-parse", "--show-toplevel"], root);
    if (hooksDir === null || top.code !== 0) {
      io.stdout(`skipped   pre-commit: ${root} is not in a git repository\n`);
    } else {
      const topDir = Deno.realPathSync(top.stdout.trim());
      const projectDir = relative(topDir, Deno.realPathSync(root));
      if (options.precommitFramework) {
        frameworkSetup(io, hooksDir, topDir, projectDir);
      } else {
        const step = installPrecommit(
          hooksDir,
          io.precommitCommand ?? io.selfCommand,
          projectDir,
        );
        report(io, "pre-commit hook", step.path, step.written, step.note);
      }
    }
  }
  const agents = options.claudeHooks ? options.agents : [];
  for (const agent of agents) {
    const step = installAgentHooks(root, agent);
    report(io, `${AGENT_LABELS[agent]} hooks`, step.path, step.written);
  }
  if (agents.includes("claude")) await localClaudeHooks(root, portable, io);
  if (options.mcp) {
    for (const agent of options.agents) {
      const step = installMcpServer(root, agent);
      report(io, `${AGENT_LABELS[agent]} MCP server`, step.path, step.written);
    }
  }
  if (options.claudeMd) {
    const [path, written] = installClaudeMd(root, config.project, config.server_url);
    report(io, "CLAUDE.md section", path, written);
  }
  if (options.index) indexConfig(root, config, io);
  if (!portable) {
    const meanwhile = agents.includes("claude")
      ? "Until then only Claude Code is gated on this machine, through .claude/settings.local.json"
      : "Until then the agent hooks cannot start on this machine";
    io.stdout(
      `note      \`policy\` is not on PATH: the hooks in committed files call \`policy\`, so ` +
        `install it with \`deno task install\` in the policyd checkout (or a release binary). ` +
        `${meanwhile}; run \`policy init\` again afterwards.\n`,
    );
  }
  return EXIT.OK;
}

/** `--index`: the installers' configuration and the line to export for pip. */
function indexConfig(
  root: string,
  config: { project: string; server_url?: string | null; mode?: string },
  io: Io,
): void {
  const url = policyIndexUrl(config.server_url ?? DEFAULT_SERVER_URL, config.project);
  for (const step of installIndexConfig(root, url)) {
    if (step.written || !step.note?.startsWith("no ")) {
      report(io, step.what, step.path, step.written, step.note);
    } else io.stdout(`skipped   ${step.what}: ${step.note}\n`);
  }
  io.stdout(`export    PIP_INDEX_URL=${url}\n`);
  if (config.mode === "org") {
    io.stdout(
      "note      org mode: installers authenticate with HTTP Basic, your API token as the " +
        "password (keyring, or user:token@ in PIP_INDEX_URL); no credential was written\n",
    );
  }
}

/**
 * The pre-commit framework runs the hook: policyd's entry in
 * `.pre-commit-config.yaml`, and no git shim of ours beside it (the
 * framework's `pre-commit install` would chain it as a second hook).
 */
function frameworkSetup(io: Io, hooksDir: string, top: string, projectDir: string): void {
  const step = installFrameworkHook(top, projectDir);
  report(io, "pre-commit framework hook", step.path, step.written);
  if (uninstallPrecommit(hooksDir)) {
    io.stdout(
      `removed   git pre-commit shim: ${
        join(hooksDir, "pre-commit")
      } (the framework runs the hook)\n`,
    );
  }
  if (!frameworkHookActive(hooksDir)) {
    io.stdout(
      "note      run `pre-commit install` to have the pre-commit framework run on commit\n",
    );
  }
}

/**
 * `.claude/settings.local.json` (uncommitted) holds this machine's command
 * only while `policy` is not on PATH; once it is, a second `init` removes it.
 */
async function localClaudeHooks(root: string, portable: boolean, io: Io): Promise<void> {
  const local = settingsPath(root, "settings.local.json");
  if (portable) {
    if (uninstallClaudeHooks(root, "settings.local.json")) {
      io.stdout(`removed   machine-specific Claude Code hooks: ${local}\n`);
    }
    return;
  }
  const step = installClaudeHooks(
    root,
    hookCommand("claude", io.selfCommand),
    "settings.local.json",
  );
  report(io, "Claude Code hooks for this machine", step.path, step.written);
  const ignored = await git(["check-ignore", "-q", local], root);
  const excludeFile = await git([
    "rev-parse",
    "--path-format=absolute",
    "--git-path",
    "info/exclude",
  ], root);
  if (ignored.code === 1 && excludeFile.code === 0) {
    const path = excludeFile.stdout.trim();
    let text = "";
    try {
      text = Deno.readTextFileSync(path);
    } catch {
      Deno.mkdirSync(dirname(path), { recursive: true });
    }
    const entry = "/" +
      relative((await git(["rev-parse", "--show-toplevel"], root)).stdout.trim(), local);
    Deno.writeTextFileSync(path, text + (text && !text.endsWith("\n") ? "\n" : "") + entry + "\n");
  }
}
