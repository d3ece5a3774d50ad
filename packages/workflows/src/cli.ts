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
import { type RememberedOptions, splitFrontMatter } from "./front_matter.ts";
import { redactionSchema } from "./schema.ts";
import type { RedactionSettings } from "./types.ts";
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
                  [--strict] [--command "deno task test"] [--redact-key WORD]… [--redact-pattern REGEX]…
                  [--keep FIELD]… [--merge | --full] [--check | --write] -- <deno test arguments>
  workflows check [same options as run] -- <deno test arguments>
  workflows export --in workflows.md --out DIR [--platform cursor,claude,copilot,windsurf,cline,agents,gemini]
                  [--link URL-or-path]

run     runs deno test, publishes the workflows of passing tests: once the tests ran, the document
        is rewritten without the workflows whose test failed (named on stderr; the exit code is
        still non-zero). A run that could not start (no test report) leaves it untouched. With
        CI=true (or 1) it checks instead of writing, unless --write is given.
check   like run, but never writes: exits 1 when the committed document is stale.
export  writes one rule file per AI coding-assistant platform (the Conventions included).

--conventions MODULE  a module exporting \`conventions\` (base path, authentication, errors,
        headers, enumerations), rendered as the document's first section, ## Conventions.
--strict  refuse to compile when a workflow declares no \`requires\` (its **Requires:** line).
--command how you run this (e.g. "deno task test"), named when the document is stale.
--redact-key WORD  also redact values under key names containing WORD (repeatable).
--redact-pattern REGEX  also redact text matching REGEX anywhere (repeatable).
--keep FIELD  never redact this field by name or entropy: a key name or a dotted path ending
        such as auth.backend (repeatable; known credential shapes are still redacted).
--title, --conventions, --strict, --command and the redaction options are remembered in the
document's front matter: later runs and checks use them unless given again.`;

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
      title: { type: "string" },
      conventions: { type: "string" },
      strict: { type: "boolean" },
      command: { type: "string" },
      "redact-key": { type: "string", multiple: true },
      "redact-pattern": { type: "string", multiple: true },
      keep: { type: "string", multiple: true },
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
  const out = resolve(io.cwd, values.out);
  let remembered: RememberedOptions;
  try {
    remembered = splitFrontMatter(await Deno.readTextFile(out).catch(() => "")).options;
  } catch (error) {
    io.log(`[workflows] cannot read ${values.out}: ${(error as Error).message}`);
    return 2;
  }
  const options: RememberedOptions = {
    title: values.title ?? remembered.title,
    conventions: values.conventions ?? remembered.conventions,
    strict: values.strict ?? remembered.strict,
    command: values.command ?? remembered.command,
    redaction: redactionOptions(values, remembered.redaction),
  };
  const ci = ["true", "1"].includes((io.env("CI") ?? "").toLowerCase());
  const check = command === "check" || values.check || (ci && !values.write);
  if (check && command === "run" && !values.check) {
    io.log("[workflows] CI is set: checking the document instead of writing it");
  }
  let conventions: ApiConventions | undefined;
  if (options.conventions !== undefined) {
    try {
      conventions = await loadConventions(options.conventions, io.cwd);
    } catch (error) {
      io.log(`[workflows] cannot load the conventions: ${(error as Error).message}`);
      return 2;
    }
  }
  return await runWorkflowTests({
    denoArgs: forwarded,
    out,
    json: resolve(io.cwd, values.json ?? out.replace(/\.md$/, "") + ".json"),
    title: options.title ?? DEFAULT_TITLE,
    conventions,
    strict: options.strict ?? false,
    merge: values.merge ? "always" : values.full ? "never" : "auto",
    check,
    cwd: io.cwd,
    log: io.log,
    redaction: options.redaction,
    command: options.command,
    remember: options,
  });
}

/** The redaction extensions: given options replace the remembered list of the same kind. */
function redactionOptions(
  values: { "redact-key"?: string[]; "redact-pattern"?: string[]; keep?: string[] },
  remembered: RedactionSettings | undefined,
): RedactionSettings | undefined {
  const settings: RedactionSettings = {
    keys: values["redact-key"] ?? remembered?.keys,
    patterns: values["redact-pattern"] ?? remembered?.patterns,
    allow: values.keep ?? remembered?.allow,
  };
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v?.length));
  if (Object.keys(defined).length === 0) return undefined;
  const parsed = redactionSchema.safeParse(defined);
  if (!parsed.success) {
    throw new UsageError(
      `bad redaction option: ${parsed.error.issues.map((i) => i.message).join("; ")}`,
    );
  }
  return parsed.data;
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
