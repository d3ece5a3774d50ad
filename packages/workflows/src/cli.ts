/**
 * The `workflows` command line: `run`, `check` and `export`, as one function
 * from arguments to an exit code (the entry point only wires the process).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { relative, resolve } from "node:path";
import { type ApiConventions, loadConventions } from "./conventions.ts";
import { DEFAULT_TITLE } from "./document.ts";
import { renderRuleFiles, writeRuleFiles } from "./export_rules.ts";
import { parsePlatforms } from "./platforms.ts";
import { runWorkflowTests } from "./runner.ts";

/** What the command line may touch of its process. */
export interface CliIo {
  cwd: string;
  env: (name: string) => string | undefined;
  /** Writes one line of diagnostics (stderr). */
  log: (line: string) => void;
}

/** Usage text of the command line. */
export const USAGE = `Usage:
  workflows run   [--out workflows.md] [--json workflows.json] [--title T] [--conventions MODULE]
                  [--strict] [--merge | --full] [--check | --write] -- <deno test arguments>
  workflows check [same options as run] -- <deno test arguments>
  workflows export --in workflows.md --out DIR [--platform cursor,claude,copilot,windsurf,cline,agents,gemini]
                  [--link URL-or-path]

run     runs deno test, publishes the workflows of passing tests. Only a passing run rewrites the
        document; --write also writes after failures. With CI=true (or 1) it checks instead of
        writing, unless --write is given.
check   like run, but never writes: exits 1 when the committed document is stale.
export  writes one rule file per AI coding-assistant platform (the Conventions included).

--conventions MODULE  a module exporting \`conventions\` (base path, authentication, errors,
        headers, enumerations), rendered as the document's first section, ## Conventions.
--strict  refuse to compile when a workflow declares no \`requires\` (its **Requires:** line).`;

/**
 * Runs the command line and returns the exit code (2 for usage errors).
 *
 * @example
 * ```ts ignore
 * import { main } from "./cli.ts";
 * const code = await main(["export", "--in", "workflows.md", "--out", "dist"], {
 *   cwd: Deno.cwd(), env: (n) => Deno.env.get(n), log: console.error,
 * });
 * ```
 */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const split = args.indexOf("--");
  const own = split === -1 ? [...args] : args.slice(0, split);
  const forwarded = split === -1 ? [] : args.slice(split + 1);
  const [command, ...rest] = own;
  try {
    if (command === "run" || command === "check") return await run(command, rest, forwarded, io);
    if (command === "export") return await exportCommand(rest, io);
    if (command === "help" || command === "--help" || command === "-h") {
      io.log(USAGE);
      return 0;
    }
    io.log(command === undefined ? USAGE : `Unknown command "${command}".\n${USAGE}`);
    return 2;
  } catch (error) {
    if (
      error instanceof TypeError && "code" in error &&
      String(error.code).startsWith("ERR_PARSE_ARGS")
    ) {
      io.log(`${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof UsageError) {
      io.log(`${error.message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

class UsageError extends Error {}

async function run(
  command: string,
  rest: string[],
  forwarded: string[],
  io: CliIo,
): Promise<number> {
  const { values } = parseArgs({
    args: rest,
    options: {
      out: { type: "string", default: "workflows.md" },
      json: { type: "string" },
      title: { type: "string", default: DEFAULT_TITLE },
      conventions: { type: "string" },
      strict: { type: "boolean", default: false },
      merge: { type: "boolean", default: false },
      full: { type: "boolean", default: false },
      check: { type: "boolean", default: false },
      write: { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.merge && values.full) throw new UsageError("--merge and --full exclude each other");
  if (values.check && values.write) throw new UsageError("--check and --write exclude each other");
  const ci = ["true", "1"].includes((io.env("CI") ?? "").toLowerCase());
  const check = command === "check" || values.check || (ci && !values.write);
  if (check && command === "run" && !values.check) {
    io.log("[workflows] CI is set: checking the document instead of writing it");
  }
  let conventions: ApiConventions | undefined;
  if (values.conventions !== undefined) {
    try {
      conventions = await loadConventions(values.conventions, io.cwd);
    } catch (error) {
      io.log(`[workflows] cannot load the conventions: ${(error as Error).message}`);
      return 2;
    }
  }
  const out = resolve(io.cwd, values.out);
  return await runWorkflowTests({
    denoArgs: forwarded,
    out,
    json: resolve(io.cwd, values.json ?? out.replace(/\.md$/, "") + ".json"),
    title: values.title,
    conventions,
    strict: values.strict,
    merge: values.merge ? "always" : values.full ? "never" : "auto",
    check,
    writeAfterFailure: values.write,
    cwd: io.cwd,
    log: io.log,
  });
}

async function exportCommand(rest: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: rest,
    options: {
      in: { type: "string", default: "workflows.md" },
      out: { type: "string" },
      platform: { type: "string" },
      link: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.out === undefined) throw new UsageError("export needs --out DIR");
  const input = resolve(io.cwd, values.in);
  const outDir = resolve(io.cwd, values.out);
  let platforms;
  try {
    platforms = parsePlatforms(values.platform);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const markdown = await Deno.readTextFile(input);
  const link = values.link ?? (relative(outDir, input).split("\\").join("/") || input);
  const files = renderRuleFiles(markdown, { platforms, link });
  await writeRuleFiles(outDir, files);
  for (const file of files) io.log(`[workflows] ${file.platform}: ${file.path} (${file.variant})`);
  return 0;
}
