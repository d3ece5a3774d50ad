/**
 * Turns what a workflow run observed into the redacted, publishable `Workflow`.
 *
 * @module
 */
import { deriveDataFlow } from "./data_flow.ts";
import type { RawApiCall, RawBoundary } from "./recorder.ts";
import { isSecretKey, redact, REDACTED, redactString } from "./redact.ts";
import {
  type QueryParams,
  type RecordedBody,
  type Workflow,
  WORKFLOW_STATUS,
  type WorkflowSource,
  type WorkflowStep,
} from "./types.ts";
import { workflowId } from "./workflow_id.ts";

/** Input of `compileWorkflow()`. */
export interface CompileInput {
  name: string;
  intent: string;
  source: WorkflowSource;
  steps: readonly (RawApiCall | RawBoundary)[];
}

/**
 * Builds a `Workflow`: derives the ID and the data flow (from the raw values,
 * in memory), then redacts every path, query, body and label, and drops the
 * request headers, so nothing secret is in the result.
 *
 * @example
 * ```ts
 * import { compileWorkflow } from "./compile_workflow.ts";
 * const wf = compileWorkflow({
 *   name: "Log in",
 *   intent: "Get a session.",
 *   source: { file: "./login_test.ts", test: "log in", index: 0 },
 *   steps: [{ kind: "api", method: "POST", path: "/login", headers: {}, status: 200,
 *     request: { type: "json", value: { user: "ann", password: "hunter2" } } }],
 * });
 * wf.steps[0]; // request.value.password === "[REDACTED]"
 * ```
 */
export function compileWorkflow(input: CompileInput): Workflow {
  return {
    id: workflowId(input.name),
    name: input.name,
    intent: input.intent,
    status: WORKFLOW_STATUS,
    source: input.source,
    steps: input.steps.map(publishStep),
    dataFlow: deriveDataFlow(input.steps),
  };
}

function publishStep(step: RawApiCall | RawBoundary): WorkflowStep {
  if (step.kind === "boundary") {
    return { kind: "boundary", domain: redactString(step.domain), name: redactString(step.name) };
  }
  const out: WorkflowStep = {
    kind: "api",
    method: step.method,
    path: redactString(step.path),
    status: step.status,
  };
  if (step.route !== undefined) out.route = step.route;
  if (step.query !== undefined) out.query = redactQuery(step.query);
  if (step.request !== undefined) out.request = redactBody(step.request);
  if (step.response !== undefined) out.response = redactBody(step.response);
  return out;
}

function redactQuery(query: QueryParams): QueryParams {
  const out: QueryParams = {};
  for (const [name, value] of Object.entries(query)) {
    out[name] = isSecretKey(name)
      ? REDACTED
      : Array.isArray(value)
      ? value.map(redactString)
      : redactString(value);
  }
  return out;
}

function redactBody(body: RecordedBody): RecordedBody {
  if (body.type === "json") return { type: "json", value: redact(body.value) };
  if (body.type === "text") return { type: "text", value: redactString(body.value) };
  return body;
}
