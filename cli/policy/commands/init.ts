/**
 * `policy init`: writes `.policy.toml` (when absent) and installs the git
 * pre-commit shim, the Claude Code hooks and the CLAUDE.md section. Every
 * step is idempotent: a second run writes nothing.
 *
 * @module
 */

import { basename, join, relative } from "node:path";
import { CONFIG_FILE, DEFAULT_SERVER_URL, findConfigFile, loadConfig } from "../config.ts";
import { ClientError, EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { git, gitHooksDir } from "../git.ts";
import { projectName } from "../pyproject.ts";
import { shellJoin } from "../install/command.ts";
import { installPrecommit } from "../install/precommit.ts";
import { installClaudeHooks } from "../install/claude_settings.ts";
import { installClaudeMd } from "../install/claude_md.ts";

/** Options of `init`, built from flags. */
export interface InitOptions {
  yes: boolean;
  serverUrl?: string;
  project?: string;
  mode?: "single-user" | "org";
  claudeHooks: boolean;
  precommit: boolean;
  claudeMd: boolean;
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
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
  const answer = (await io.readStdin()).trim().toLowerCase();
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
      projectName(readText(join(root, "pyproject.toml")), basename(root) || "default");
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
  const config = loadConfig(root);
  const hookCommand = `${shellJoin(io.selfCommand)} hook`;

  if (options.precommit) {
    const hooksDir = await gitHooksDir(root);
    const top = await git(["rev-parse", "--show-toplevel"], root);
    if (hooksDir === null || top.code !== 0) {
      io.stdout(`skipped   pre-commit: ${root} is not in a git repository\n`);
    } else {
      const projectDir = relative(Deno.realPathSync(top.stdout.trim()), Deno.realPathSync(root));
      const step = installPrecommit(hooksDir, io.selfCommand, projectDir);
      report(io, "pre-commit hook", step.path, step.written, step.note);
    }
  }
  if (options.claudeHooks) {
    const step = installClaudeHooks(root, hookCommand);
    report(io, "Claude Code hooks", step.path, step.written);
  }
  if (options.claudeMd) {
    const [path, written] = installClaudeMd(
      root,
      config.project,
      config.server_url,
      shellJoin(io.selfCommand),
    );
    report(io, "CLAUDE.md section", path, written);
  }
  return EXIT.OK;
}
