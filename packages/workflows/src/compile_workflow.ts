/**
 * Turns what a workflow run observed into the redacted, publishable `Workflow`.
 *
 * @module
 */
import { deriveDataFlow } from "./data_flow.ts";
import type { RawApiCall, RawBoundary } from "./recorder.ts";
import { isSecretKey, redact, REDACTED, redactString } from "./redact.ts";
import {
  type ApiStep,
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
  /** Prerequisites of the workflow (`workflow(…, { requires })`). */
  requires?: readonly string[];
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
  const requires = (input.requires ?? []).map(redactString);
  return {
    id: workflowId(input.name),
    name: input.name,
    intent: input.intent,
    ...(requires.length > 0 ? { requires } : {}),
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
  const out: ApiStep = {
    kind: "api",
    method: step.method,
    path: redactString(step.path),
  } as ApiStep;
  if (step.route !== undefined) out.route = step.route;
  if (Object.keys(step.headers).length > 0) out.headers = redactHeaders(step.headers);
  if (step.query !== undefined) out.query = redactQuery(step.query);
  if (step.request !== undefined) out.request = abbreviateBody(redactBody(step.request));
  out.status = step.status;
  if (step.responseHeaders !== undefined) out.responseHeaders = redactHeaders(step.responseHeaders);
  if (step.response !== undefined) out.response = abbreviateBody(redactBody(step.response));
  return out;
}

function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map((
      [name, value],
    ) => [name, isSecretKey(name) ? REDACTED : redactString(value)]),
  );
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
