/**
 * Per-test fragment files: how a passing workflow test hands its workflow to
 * the runner through the run directory named by `WORKFLOWS_RUN_DIR`.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import type { RedactionOptions } from "./redact.ts";
import { redactionSchema, workflowSchema } from "./schema.ts";
import type { Workflow, WorkflowSource } from "./types.ts";

/** The environment variable the runner sets to the run directory. */
export const RUN_DIR_ENV = "WORKFLOWS_RUN_DIR";

/** The environment variable carrying the project's redaction extensions (JSON). */
export const REDACTION_ENV = "WORKFLOWS_REDACTION";

/**
 * The project's redaction extensions the runner passes to the tests, or `{}`
 * (plain `deno test`, or no extension). Throws when the variable is not a
 * redaction description, or cannot be read although the run directory can,
 * so nothing silently weakens redaction.
 *
 * @example
 * ```ts
 * import { readRedaction } from "./fragment.ts";
 * readRedaction(); // {} unless WORKFLOWS_REDACTION is set
 * ```
 */
export function readRedaction(): RedactionOptions {
  const permission = Deno.permissions.querySync({ name: "env", variable: REDACTION_ENV });
  if (permission.state !== "granted") {
    if (readRunDir() === undefined) return {};
    // Under the runner, a test that may not read the project's redaction
    // rules must not publish with fewer of them.
    throw new Error(
      `this test may read ${RUN_DIR_ENV} but not ${REDACTION_ENV}; grant both ` +
        `(--allow-env=${RUN_DIR_ENV},${REDACTION_ENV}) so the project's redaction rules apply`,
    );
  }
  const text = Deno.env.get(REDACTION_ENV);
  if (text === undefined || text === "") return {};
  const parsed = redactionSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(
      `${REDACTION_ENV} is not a redaction description: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** Why a declared workflow was not published. */
export type DropReason = "test failed" | "no calls recorded";

/** A workflow a test declared but did not publish, as the runner reports it. */
export interface DroppedWorkflow {
  name: string;
  source: WorkflowSource;
  reason: DropReason;
}

const droppedSchema = z.strictObject({
  name: z.string(),
  source: z.strictObject({ file: z.string(), test: z.string(), index: z.number().int() }),
  reason: z.enum(["test failed", "no calls recorded"]),
});

/**
 * The run directory, or `undefined` when the tests are not running under the
 * runner (or may not read the variable): then workflows are recorded but not
 * written, so plain `deno test` is unaffected.
 *
 * @example
 * ```ts
 * import { readRunDir } from "./fragment.ts";
 * readRunDir(); // undefined unless WORKFLOWS_RUN_DIR is set
 * ```
 */
export function readRunDir(): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: RUN_DIR_ENV });
  if (permission.state !== "granted") return undefined;
  const dir = Deno.env.get(RUN_DIR_ENV);
  return dir === undefined || dir === "" ? undefined : dir;
}

/**
 * The fragment file of one test: the SHA-256 of `origin NUL test name`, so a
 * retried or repeated test overwrites its own fragment and nothing else.
 *
 * @example
 * ```ts
 * import { fragmentPath } from "./fragment.ts";
 * await fragmentPath("/tmp/run", "file:///a_test.ts", "t"); // "/tmp/run/<64 hex>.json"
 * ```
 */
export async function fragmentPath(runDir: string, origin: string, test: string): Promise<string> {
  const data = new TextEncoder().encode(`${origin}\0${test}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return join(runDir, `${hex}.json`);
}

/**
 * Deletes a fragment if it exists (at test start, so a failing retry leaves
 * nothing behind).
 *
 * @example
 * ```ts
 * import { removeFragment } from "./fragment.ts";
 * removeFragment("/tmp/does-not-exist.json"); // no error
 * ```
 */
export function removeFragment(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

// Fragments a test could not write because it runs with reduced permissions
// (`Deno.test({ permissions })`); the module-level unload listener, which has
// the module's permissions, flushes them. Unavoidable module state: the only
// hook that outlives the test is per module.
const deferred: [string, string][] = [];

/**
 * Writes a fragment synchronously (sync writes are invisible to the ops
 * sanitizer); a write the test's permissions forbid is deferred to the
 * module's `unload` event.
 *
 * @example
 * ```ts
 * import { writeFragment } from "./fragment.ts";
 * const dir = await Deno.makeTempDir();
 * writeFragment(`${dir}/abc.json`, {
 *   id: "check_health", name: "Check health", intent: "Confirm the API is up.",
 *   status: "Verified / Test-Gated", source: { file: "file:///health_test.ts", test: "health", index: 0 },
 *   steps: [], dataFlow: [],
 * });
 * ```
 */
export function writeFragment(path: string, workflow: Workflow): void {
  writeDeferrable(path, JSON.stringify(workflow));
}

/**
 * Records a workflow that will not be published, next to where its fragment
 * would be (`<hash>.dropped.json`), so the runner can name it and say why.
 *
 * @example
 * ```ts
 * import { writeDropped } from "./fragment.ts";
 * const dir = await Deno.makeTempDir();
 * writeDropped(`${dir}/abc.json`, {
 *   name: "Check health", reason: "test failed",
 *   source: { file: "file:///health_test.ts", test: "health", index: 0 },
 * });
 * ```
 */
export function writeDropped(fragment: string, dropped: DroppedWorkflow): void {
  writeDeferrable(droppedPath(fragment), JSON.stringify(dropped));
}

/**
 * The drop record's path of a fragment path.
 *
 * @example
 * ```ts
 * import { droppedPath } from "./fragment.ts";
 * droppedPath("/tmp/run/ab.json"); // "/tmp/run/ab.dropped.json"
 * ```
 */
export function droppedPath(fragment: string): string {
  return fragment.replace(/\.json$/, ".dropped.json");
}

function writeDeferrable(path: string, text: string): void {
  try {
    Deno.writeTextFileSync(path, text);
  } catch (error) {
    if (
      !(error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied)
    ) {
      throw error;
    }
    if (deferred.length === 0) globalThis.addEventListener("unload", flushDeferred);
    deferred.push([path, text]);
  }
}

function flushDeferred(): void {
  for (const [path, text] of deferred.splice(0)) Deno.writeTextFileSync(path, text);
}

/**
 * Reads and validates every fragment of a run directory.
 *
 * @example
 * ```ts
 * import { readFragments } from "./fragment.ts";
 * const workflows = await readFragments(await Deno.makeTempDir()); // []
 * ```
 */
export async function readFragments(runDir: string): Promise<Workflow[]> {
  const out: Workflow[] = [];
  for await (const entry of Deno.readDir(runDir)) {
    if (!entry.isFile || !/^[0-9a-f]{64}\.json$/.test(entry.name)) continue;
    const text = await Deno.readTextFile(join(runDir, entry.name));
    const parsed = workflowSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new Error(`Cannot read workflow fragment "${entry.name}": ${parsed.error.message}`);
    }
    out.push(parsed.data);
  }
  return out;
}

/**
 * Reads every drop record of a run directory.
 *
 * @example
 * ```ts
 * import { readDropped } from "./fragment.ts";
 * await readDropped(await Deno.makeTempDir()); // []
 * ```
 */
export async function readDropped(runDir: string): Promise<DroppedWorkflow[]> {
  const out: DroppedWorkflow[] = [];
  for await (const entry of Deno.readDir(runDir)) {
    if (!entry.isFile || !/^[0-9a-f]{64}\.dropped\.json$/.test(entry.name)) continue;
    const text = await Deno.readTextFile(join(runDir, entry.name));
    const parsed = droppedSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new Error(`Cannot read workflow drop record "${entry.name}": ${parsed.error.message}`);
    }
    out.push(parsed.data);
  }
  return out;
}
