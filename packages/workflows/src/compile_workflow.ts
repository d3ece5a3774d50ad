/**
 * Turns what a workflow run observed into the redacted, publishable `Workflow`.
 *
 * @module
 */
import { deriveDataFlow } from "./data_flow.ts";
import type { RawApiCall, RawBoundary } from "./recorder.ts";
import { Redactor } from "./redact.ts";
import {
  type ApiStep,
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
  /** Prerequisites of the workflow (`workflow(…, { requires })`). */
  requires?: readonly string[];
  source: WorkflowSource;
  steps: readonly (RawApiCall | RawBoundary)[];
  /** The redaction rules (default: `new Redactor()`, the default rules). */
  redactor?: Redactor;
}

/**
 * Builds a `Workflow`: derives the data flow (from the raw values, in memory),
 * then redacts the name, intent, requirements, every path, header, query,
 * body and label, so nothing secret is in the result. The ID is derived from
 * the redacted name.
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
  const r = input.redactor ?? new Redactor();
  const requires = (input.requires ?? []).map((item) => r.string(item));
  const name = r.string(input.name);
  return {
    id: workflowId(name),
    name,
    intent: r.string(input.intent),
    ...(requires.length > 0 ? { requires } : {}),
    status: WORKFLOW_STATUS,
    source: input.source,
    steps: input.steps.map((step) => publishStep(step, r)),
    dataFlow: deriveDataFlow(input.steps),
  };
}

function publishStep(step: RawApiCall | RawBoundary, r: Redactor): WorkflowStep {
  if (step.kind === "boundary") {
    return { kind: "boundary", domain: r.string(step.domain), name: r.string(step.name) };
  }
  const out: ApiStep = {
    kind: "api",
    method: step.method,
    path: r.string(step.path),
  } as ApiStep;
  if (step.route !== undefined) out.route = step.route;
  if (Object.keys(step.headers).length > 0) out.headers = r.entries(step.headers);
  if (step.query !== undefined) out.query = r.entries(step.query);
  if (step.request !== undefined) out.request = abbreviateBody(redactBody(step.request, r));
  out.status = step.status;
  if (step.responseHeaders !== undefined) out.responseHeaders = r.entries(step.responseHeaders);
  if (step.response !== undefined) out.response = abbreviateBody(redactBody(step.response, r));
  return out;
}

/** Arrays longer than this are shown as their first items and a count. */
export const MAX_SHOWN_ITEMS = 20;
/** Strings longer than this are shown as their start and a length. */
export const MAX_SHOWN_CHARS = 2000;

/**
 * Keeps huge payloads (a 501-item batch, a 1 MiB body) readable: arrays over
 * {@link MAX_SHOWN_ITEMS} keep their first 3 items and a `"… N more items (M in
 * all)"` marker, strings over {@link MAX_SHOWN_CHARS} their first 120
 * characters and `"… (N characters in all)"`. Applied after redaction.
 */
function abbreviateBody(body: RecordedBody): RecordedBody {
  if (body.type === "json") return { type: "json", value: abbreviate(body.value) };
  if (body.type === "text") return { type: "text", value: abbreviateString(body.value) };
  return body;
}

function abbreviate(value: unknown): unknown {
  if (typeof value === "string") return abbreviateString(value);
  if (Array.isArray(value)) {
    if (value.length <= MAX_SHOWN_ITEMS) return value.map(abbreviate);
    return [
      ...value.slice(0, 3).map(abbreviate),
      `… ${value.length - 3} more items (${value.length} in all)`,
    ];
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v)]));
  }
  return value;
}

function abbreviateString(text: string): string {
  return text.length <= MAX_SHOWN_CHARS
    ? text
    : `${text.slice(0, 120)}… (${text.length} characters in all)`;
}

function redactBody(body: RecordedBody, r: Redactor): RecordedBody {
  if (body.type === "json") return { type: "json", value: r.value(body.value) };
  if (body.type === "text") return { type: "text", value: r.string(body.value) };
  return body;
}
