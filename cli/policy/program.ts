/**
 * The `policy` command line as a commander program: every command, its help
 * and usage errors. `cli/policy.ts` loads this module only for what the fast
 * path (`fast_path.ts`) does not take, so `check`, `hook` and `precommit`
 * never load commander (docs/performance.md, "Client start-up").
 *
 * @module
 */

import * as commander from "commander";
import type { Command } from "commander";
import { EXIT, oneLine } from "./exit_codes.ts";
import type { Io } from "./io.ts";
import { AGENTS, parseAgents } from "./agents/names.ts";
import { AUDIT_FORMATS, FAIL_ON } from "./audit/options.ts";
import { CLIENT_VERSION } from "./version.ts";
import { REGISTRY_STATUSES } from "../../src/api/enums.ts";
import { BUILT_FROM, BUNDLED } from "./build_info.ts";
import { staleBundleWarning } from "./bundle_freshness.ts";

function url(value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") {
      return value.replace(/\/+$/, "");
    }
  } catch {
    // reported below
  }
  throw new commander.InvalidArgumentError("expected an http(s) URL");
}

function agentFlags(command: Command): Command {
  return command
    .option(
      "--agent-model <model>",
      "agent model sent as X-Policy-Agent-Model (env POLICY_AGENT_MODEL)",
    )
    .option(
      "--agent-version <version>",
      "agent version sent as X-Policy-Agent-Version (env POLICY_AGENT_VERSION)",
    );
}

/**
 * The commander program of every command (exported for the test that checks
 * it against the fast path's forms, `fast_path_agreement_test.ts`).
 */
export function buildProgram(io: Io, setCode: (code: number) => void): Command {
  const { Command, Option } = commander;
  const program = new Command("policy")
    .description("Client of policyd, the dependency policy service for Python packages.")
    .version(CLIENT_VERSION, "-V, --cli-version", "print the client version")
    .enablePositionalOptions()
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: () => {}, // run() prints one line itself
    });

  program.command("init")
    .description("write .policy.toml and install the pre-commit hook and the coding-agent hooks")
    .option("-y, --yes", "do not ask for confirmation", false)
    .option("--server-url <url>", "policyd base URL", url)
    .option("--project <name>", "project name")
    .addOption(new Option("--mode <mode>", "client mode").choices(["single-user", "org"]))
    .option(
      "--agents <list>",
      `agents to gate, comma-separated: ${AGENTS.join(",")} or all`,
      (value: string) => {
        try {
          return parseAgents(value);
        } catch (error) {
          throw new commander.InvalidArgumentError((error as Error).message);
        }
      },
      ["claude"],
    )
    .option("--no-claude-hooks", "do not install any agent hooks")
    .option("--no-mcp", "do not register the MCP server in the agents' MCP configuration")
    .option("--no-precommit", "do not install the git pre-commit hook")
    .option(
      "--precommit-framework",
      "write or extend .pre-commit-config.yaml with policyd's hook instead of the git pre-commit hook",
      false,
    )
    .option("--no-claude-md", "do not add the CLAUDE.md section")
    .option("--index", "point uv, Poetry, PDM and pip at policyd's index (/p/{project}/simple/)")
    .action(async (o) => {
      const { init } = await import("./commands/init.ts");
      setCode(await init(o, io));
    });

  agentFlags(
    program.command("check")
      .description("evaluate one package: exit 0 allowed, 1 provisional, 2 denied")
      .argument("<package>", "package name (PEP 508 name, may be name==1.2)")
      .option("--version <version>", "version to evaluate")
      .option("--json", "print the evaluation as JSON", false),
  ).action(async (pkg: string, o) => {
    const { check } = await import("./commands/check.ts");
    setCode(await check({ ...o, package: pkg }, io));
  });

  agentFlags(
    program.command("request-approval")
      .description("ask the operators to review a package")
      .argument("<package>", "package name")
      .requiredOption("--rationale <text>", "why the package is needed")
      .option("--version <version>", "version concerned")
      .option("--json", "print the receipt as JSON", false),
  ).action(async (pkg: string, o) => {
    const { requestApproval } = await import("./commands/request_approval.ts");
    setCode(await requestApproval({ ...o, package: pkg }, io));
  });

  program.command("approve")
    .description(
      "approve a package as an operator (calls the operator API; org mode needs an operator's token)",
    )
    .argument("<package>", "package name")
    .addOption(
      new Option("--status <status>", "the rule's status").choices([...REGISTRY_STATUSES])
        .default("approved"),
    )
    .option("--reason <text>", "the rule's reason, written by you")
    .option("--replacement <package>", "replacement (deprecated packages)")
    .option("--min-version <version>", "lowest allowed version (version-constrained)")
    .option("--max-version <version>", "highest allowed version (version-constrained)")
    .option("--json", "print the proposer's result as JSON", false)
    .action(async (pkg: string, o) => {
      const { approve } = await import("./commands/approve.ts");
      setCode(await approve({ ...o, package: pkg }, io));
    });

  agentFlags(
    program.command("audit")
      .description(
        "evaluate every package a lock file, requirements file or pyproject.toml installs",
      )
      .argument("[files...]", "files to audit (default: discovered in the project root)")
      .addOption(
        new Option("--format <format>", "output format").choices(AUDIT_FORMATS).default("table"),
      )
      .addOption(
        new Option("--fail-on <verdict>", "lowest verdict that fails (exit 1 or 2)")
          .choices(FAIL_ON).default("provisional"),
      )
      .option("--only-direct", "audit direct dependencies only", false)
      .option("--json", "same as --format json", false),
  ).action(async (files: string[], o) => {
    const { audit } = await import("./commands/audit.ts");
    setCode(await audit({ ...o, files, clientVersion: CLIENT_VERSION }, io));
  });

  program.command("status")
    .description("one-screen report: server, hooks, approvals, CVE denials, dependencies")
    .option("--json", "print {sections:[{name, flag, detail}]}", false)
    .action(async (o) => {
      const { status } = await import("./commands/status.ts");
      setCode(await status(o, io));
    });

  program.command("precommit")
    .description("check dependencies the staged change adds (run by the git pre-commit hook)")
    .option("--all", "check every dependency of every manifest in the index", false)
    .option(
      "--staged-diff-stdin",
      "read the staged diff from standard input, as the git hook pipes it (git runs when unreadable)",
      false,
    )
    .action(async (o) => {
      const { precommit } = await import("./commands/precommit.ts");
      setCode(await precommit(io, o));
    });

  program.command("hook")
    .description("handle one coding-agent hook event from standard input (see docs/hooks.md)")
    .addOption(
      new Option("--agent <name>", "the agent whose payload and answer format to use")
        .choices([...AGENTS]).default("claude"),
    )
    .action(async (o) => {
      const { hook } = await import("./commands/hook.ts");
      setCode(await hook(io, o));
    });

  program.command("uninstall")
    .description("remove the hooks, the shim and the CLAUDE.md section; keep .policy.toml")
    .action(async () => {
      const { uninstall } = await import("./commands/uninstall.ts");
      setCode(await uninstall(io));
    });

  program.command("mcp")
    .description("serve the policyd MCP tools to a coding agent on stdin/stdout")
    .action(async () => {
      const { mcp } = await import("./commands/mcp.ts");
      setCode(await mcp(io));
    });

  return program;
}

/**
 * Runs `args` (without the program name) through commander and returns the
 * exit code; usage errors are one line on stderr. Errors of the command
 * itself are thrown for `run()` to report.
 */
export async function runProgram(args: string[], io: Io): Promise<number> {
  if (BUNDLED) io.stderr(staleBundleWarning(BUILT_FROM, import.meta.filename) ?? "");
  let code: number = EXIT.OK;
  const program = buildProgram(io, (c) => code = c);
  if (args.length === 0) {
    io.stderr(program.helpInformation());
    return EXIT.USAGE;
  }
  try {
    await program.parseAsync(args, { from: "user" });
    return code;
  } catch (error) {
    if (!(error instanceof commander.CommanderError)) throw error;
    if (error.exitCode === 0) return EXIT.OK; // --help, --cli-version
    if (error.code === "commander.help" || error.code === "commander.executeSubCommandAsync") {
      return EXIT.USAGE;
    }
    io.stderr(`policy: ${oneLine(error.message.replace(/^error: /, ""))}\n`);
    return EXIT.USAGE;
  }
}
