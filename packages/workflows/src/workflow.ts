/**
 * `workflow()`: wraps a `Deno.test` body so a passing run publishes one
 * workflow.
 *
 * @module
 */
import { compileWorkflow } from "./compile_workflow.ts";
import {
  droppedPath,
  fragmentPath,
  readRedaction,
  readRunDir,
  removeFragment,
  writeDropped,
  writeFragment,
} from "./fragment.ts";
import { WorkflowRecorder } from "./recorder.ts";
import { Redactor, redactString } from "./redact.ts";
import { workflowId } from "./workflow_id.ts";

/** The body of a workflow test. */
export type WorkflowFn = (t: Deno.TestContext) => void | Promise<void>;

/** Options of `workflow()`. */
export interface WorkflowOptions {
  /**
   * What a caller needs before this workflow works: server configuration,
   * a role, data that must exist. Rendered as the `**Requires:**` line under
   * the intent (one item, or several joined with `; `).
   */
  requires?: string | readonly string[];
}

// Declaration counter of this test module: every test file runs in its own
// isolate with a fresh module graph, so this counts `workflow()` calls per file
// in declaration order, which the document is sorted by. Unavoidable module
// state: the declaration order is not observable any other way.
let declared = 0;

/**
 * Returns a test function for `Deno.test(name, workflow(...))`. The body runs
 * with a recorder, so `AgentTestClient` calls and `stepBoundary()` blocks in it
 * become the workflow's steps. When the body completes without throwing, no
 * `t.step` failed and at least one API call was recorded, the redacted
 * workflow is written to the runner's run directory; the runner then
 * publishes it only if JUnit says the test passed. Otherwise a drop record
 * (name and reason) lets the runner name the workflow it left out.
 * `options.requires` lists its prerequisites. Throws at declaration when the
 * name yields no ID or a `requires` item is empty.
 *
 * @example
 * ```ts ignore
 * import { Hono } from "hono";
 * import { AgentTestClient, workflow } from "./mod.ts";
 * const app = new Hono().get("/health", (c) => c.json({ ok: true }));
 * Deno.test("health", workflow("Check health", "Confirm the API is up.", async () => {
 *   const res = await new AgentTestClient(app).get("/health");
 *   if (res.status !== 200) throw new Error("down");
 * }, { requires: "nothing: the health route needs no authentication" }));
 * ```
 */
export function workflow(
  name: string,
  intent: string,
  fn: WorkflowFn,
  options: WorkflowOptions = {},
): (t: Deno.TestContext) => Promise<void> {
  workflowId(name);
  const requires = typeof options.requires === "string"
    ? [options.requires]
    : [...(options.requires ?? [])];
  if (requires.some((item) => item.trim() === "")) {
    throw new Error(`workflow "${name}": every \`requires\` item must say something`);
  }
  const index = declared++;
  return async (t) => {
    const runDir = readRunDir();
    const target = runDir === undefined ? undefined : await fragmentPath(runDir, t.origin, t.name);
    if (target !== undefined) {
      removeFragment(target);
      removeFragment(droppedPath(target));
    }
    const source = { file: t.origin, test: t.name, index };
    const drop = (reason: "test failed" | "no calls recorded") => {
      // The name is shown on stderr: redacted by the default rules like everything written.
      if (target !== undefined) writeDropped(target, { name: redactString(name), source, reason });
    };
    let failedSteps = 0;
    const context = proxyContext(t, () => failedSteps++);
    const recorder = new WorkflowRecorder();
    try {
      await recorder.run(() => fn(context));
    } catch (error) {
      drop("test failed");
      throw error;
    }
    if (target === undefined) return;
    if (failedSteps > 0) return drop("test failed");
    const steps = recorder.steps();
    if (!steps.some((step) => step.kind === "api")) return drop("no calls recorded");
    let redactor: Redactor;
    try {
      redactor = new Redactor(readRedaction());
    } catch (error) {
      drop("test failed");
      throw error;
    }
    writeFragment(target, compileWorkflow({ name, intent, requires, source, steps, redactor }));
  };
}

// A failed `t.step` does not throw (it resolves to `false`), so the wrapper
// watches the top-level steps; nested failures propagate to them.
function proxyContext(t: Deno.TestContext, onFailure: () => void): Deno.TestContext {
  const step = (...args: unknown[]): Promise<boolean> => {
    const run = t.step as (...a: unknown[]) => Promise<boolean>;
    return run.apply(t, args).then((ok) => {
      if (!ok) onFailure();
      return ok;
    });
  };
  return new Proxy(t, {
    get(target, property) {
      if (property === "step") return step;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
