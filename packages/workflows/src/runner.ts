/**
 * The test-gated runner: runs `deno test` with a JUnit report, keeps the
 * workflows of tests JUnit says passed, and writes (or checks) the document.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { checkDocument, type Compiled, plural, writeDocument } from "./runner_output.ts";
import type { ApiConventions } from "./conventions.ts";
import { analyseDenoTestArgs, forbiddenDenoTestArg, permissionArgs } from "./deno_args.ts";
import { buildDocument, mergeWorkflows, serializeDocument } from "./document.ts";
import {
  type DroppedWorkflow,
  readDropped,
  readFragments,
  REDACTION_ENV,
  RUN_DIR_ENV,
} from "./fragment.ts";
import { type RememberedOptions, renderFrontMatter } from "./front_matter.ts";
import { type JUnitReport, parseJUnit, testKey } from "./junit.ts";
import { renderDocument } from "./render.ts";
import { workflowDocumentSchema } from "./schema.ts";
import type { RedactionSettings, Workflow } from "./types.ts";

/** Options of `runWorkflowTests()`. */
export interface RunOptions {
  /** Arguments forwarded to `deno test`. */
  denoArgs: string[];
  /** Markdown document path. */
  out: string;
  /** JSON twin path. */
  json: string;
  title: string;
  /** The API's conventions, rendered as the document's first section. */
  conventions?: ApiConventions;
  /** Refuse to compile a workflow without `requires` (`--strict`). */
  strict?: boolean;
  /** `auto`: merge when the run is narrowed; `always` (`--merge`); `never` (`--full`). */
  merge: "auto" | "always" | "never";
  /** Compare with the existing files instead of writing them. */
  check: boolean;
  /** Directory `deno test` runs in; test files are keyed relative to it. */
  cwd: string;
  /** Where progress and errors are written (stderr). */
  log: (line: string) => void;
  /** The `deno` executable (default: the running one). */
  denoPath?: string;
  /** Extra environment for `deno test`. */
  env?: Record<string, string>;
  /** The project's redaction extensions, handed to the tests and stated in the preamble. */
  redaction?: RedactionSettings;
  /**
   * How the project runs the runner (`deno task test`), named in messages
   * that tell the user what to run. Default: the generic `workflows run`.
   */
  command?: string;
  /** Options remembered in the document's front matter (see `splitFrontMatter()`). */
  remember?: RememberedOptions;
}

/**
 * Runs the suite and compiles the document; returns the exit code: `deno
 * test`'s when it failed, otherwise 0, or 1 when the document could not be
 * compiled or (with `check`) is stale. A workflow whose test fails is not
 * published: a run whose tests ran and some failed rewrites the document
 * without the failing workflows, names them and still exits non-zero. Only a
 * run that could not start (no JUnit report: type error, bad arguments) or
 * could not compile leaves the document untouched.
 *
 * @example
 * ```ts ignore
 * import { runWorkflowTests } from "./runner.ts";
 * const code = await runWorkflowTests({
 *   denoArgs: ["-A"], out: "workflows.md", json: "workflows.json", title: "API Workflows",
 *   merge: "auto", check: false, cwd: Deno.cwd(), log: console.error,
 * });
 * ```
 */
export async function runWorkflowTests(options: RunOptions): Promise<number> {
  const log = (line: string) => options.log(`[workflows] ${line}`);
  const show = (path: string) => {
    const rel = relative(options.cwd, path);
    return rel === "" || rel.startsWith("..") ? path : rel;
  };
  const forbidden = forbiddenDenoTestArg(options.denoArgs);
  if (forbidden) {
    log(
      `Cannot run: ${forbidden} is managed by the workflows runner; remove it from the deno test arguments`,
    );
    return 2;
  }
  const runDir = await Deno.makeTempDir({ prefix: "workflows-run-" });
  try {
    const junitPath = resolve(runDir, "junit.xml");
    const testCode = await runDenoTest(options, runDir, junitPath);
    const failed = (code: number) => (testCode !== 0 ? testCode : code);
    let xml: string;
    try {
      xml = await Deno.readTextFile(junitPath);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      log(
        `no JUnit report (type-check or module load failure?); ${show(options.out)} left untouched`,
      );
      return failed(1);
    }
    const result = await compile(options, runDir, parseJUnit(xml), log);
    if (typeof result === "string") {
      log(`${result}; ${show(options.out)} left untouched`);
      return failed(1);
    }
    const stale = await (options.check ? checkDocument : writeDocument)(options, result, log, show);
    return failed(stale ? 1 : 0);
  } finally {
    await Deno.remove(runDir, { recursive: true });
  }
}

async function runDenoTest(
  options: RunOptions,
  runDir: string,
  junitPath: string,
): Promise<number> {
  const args = [
    "test",
    `--junit-path=${junitPath}`,
    ...permissionArgs(options.denoArgs, runDir, `${RUN_DIR_ENV},${REDACTION_ENV}`),
    ...options.denoArgs,
  ];
  const child = new Deno.Command(options.denoPath ?? Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: {
      ...options.env,
      [RUN_DIR_ENV]: runDir,
      [REDACTION_ENV]: options.redaction === undefined ? "" : JSON.stringify(options.redaction),
    },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

async function compile(
  options: RunOptions,
  runDir: string,
  report: JUnitReport,
  log: (line: string) => void,
): Promise<Compiled | string> {
  const fragments = (await readFragments(runDir)).map((wf) => relativise(wf, options.cwd));
  const dropped = (await readDropped(runDir)).map((d) => relativise(d, options.cwd));
  const passed: Workflow[] = [];
  const notPublished: DroppedWorkflow[] = [...dropped];
  if (options.strict) {
    const bare = fragments.filter((wf) => !wf.requires?.length).map((wf) => `"${wf.name}"`);
    if (bare.length > 0) {
      return `Cannot compile workflows (--strict): no \`requires\` in ${bare.join(", ")}`;
    }
  }
  for (const wf of fragments) {
    const key = testKey(wf.source.file, wf.source.test);
    if (report.ambiguous.has(key)) {
      return `Cannot compile workflows: ${wf.source.file} has several tests named "${wf.source.test}"`;
    }
    if (report.verdicts.get(key) === "passed") passed.push(wf);
    else notPublished.push({ name: wf.name, source: wf.source, reason: "test failed" });
  }
  notPublished.sort((a, b) =>
    compareText(a.source.file, b.source.file) || a.source.index - b.source.index
  );
  for (const wf of notPublished) {
    log(`not published: "${wf.name}" (${wf.source.file}, test "${wf.source.test}"): ${wf.reason}`);
  }
  if (notPublished.length > 0) {
    log(`${plural(notPublished.length)} not published (named above)`);
  }
  const narrowedBy = options.merge === "always"
    ? "--merge"
    : options.merge === "auto"
    ? analyseDenoTestArgs(options.denoArgs).narrowedBy
    : undefined;
  let workflows = passed;
  if (narrowedBy !== undefined) {
    const previous = await readPrevious(options.json);
    if (typeof previous === "string") return previous;
    const exists = (file: string) => existsSync(resolve(options.cwd, file));
    workflows = mergeWorkflows(previous, passed, report, exists);
    log(
      `the run was narrowed (${narrowedBy}): merged into the previous document, nothing that did not run was removed`,
    );
  }
  try {
    const doc = buildDocument(workflows, options.title, options.conventions, options.redaction);
    const markdown = renderFrontMatter(options.remember ?? {}) + renderDocument(doc);
    const names = notPublished.map((wf) => wf.name);
    return { markdown, json: serializeDocument(doc), count: workflows.length, dropped: names };
  } catch (error) {
    return (error as Error).message;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function relativise<T extends { source: Workflow["source"] }>(wf: T, cwd: string): T {
  if (!wf.source.file.startsWith("file:")) return wf;
  const path = relative(cwd, fileURLToPath(wf.source.file)).split(sep).join("/");
  const file = path.startsWith("../") ? path : `./${path}`;
  return { ...wf, source: { ...wf.source, file } };
}

async function readPrevious(path: string): Promise<Workflow[] | string> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `Cannot merge into "${path}": ${
      (error as Error).message
    }; run the full suite to rebuild it`;
  }
  const parsed = workflowDocumentSchema.safeParse(data);
  if (!parsed.success) {
    return `Cannot merge into "${path}": it is not a workflows document; run the full suite to rebuild it`;
  }
  return parsed.data.workflows;
}
