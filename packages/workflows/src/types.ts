/**
 * Plain data shapes shared by the recorder, the renderer, the runner and the
 * exporter. Everything here is JSON-serialisable so a workflow can travel from
 * the test isolate (as a fragment file) to the runner and into `workflows.json`.
 *
 * @module
 */

import type { ApiConventions } from "./conventions.ts";

/** The only status a published workflow can have. */
export const WORKFLOW_STATUS = "Verified / Test-Gated" as const;

/** Query parameters of one call: a name maps to one value or repeated values. */
export type QueryParams = Record<string, string | string[]>;

/**
 * A recorded body: decoded JSON, text, or a note saying why the bytes were left
 * out (binary payloads and event streams are never buffered into the document).
 */
export type RecordedBody =
  | { type: "json"; value: unknown }
  | { type: "text"; value: string }
  | { type: "omitted"; reason: string };

/** One API call of a workflow as it appears in the document (already redacted). */
export interface ApiStep {
  kind: "api";
  method: string;
  /** The concrete path the test called, without the query string. */
  path: string;
  /** The route template (`/items/:id`) when the target exposes its routes. */
  route?: string;
  /** Request headers the test set, redacted (names lowercased). */
  headers?: Record<string, string>;
  query?: QueryParams;
  request?: RecordedBody;
  status: number;
  /** Response headers a caller acts on (`www-authenticate`, `location`, `retry-after`, `allow`). */
  responseHeaders?: Record<string, string>;
  response?: RecordedBody;
}

/** One non-API step recorded with `stepBoundary()`. */
export interface BoundaryStep {
  kind: "boundary";
  /** The label given by the test (for example `Client-side logic`). */
  domain: string;
  name: string;
}

/** A step of a workflow, in execution order. */
export type WorkflowStep = ApiStep | BoundaryStep;

/** Where a value returned earlier reappears in a later request. */
export type FlowLocation = "request body" | "query" | "path" | "request header";

/** One derived data-flow link: a response value of one step used by a later one. */
export interface DataFlowLink {
  from: { step: number; key: string };
  to: { step: number; location: FlowLocation; key: string };
}

/** Which test produced a workflow: the key the runner gates on. */
export interface WorkflowSource {
  /** Test file, relative to the directory `deno test` ran in (`./tests/x_test.ts`). */
  file: string;
  /** The `Deno.test` name. */
  test: string;
  /** Declaration index of the `workflow()` call within its test module. */
  index: number;
}

/** A compiled workflow: one section of `workflows.md`, one item of `workflows.json`. */
export interface Workflow {
  id: string;
  name: string;
  intent: string;
  /** Prerequisites (server configuration, role), rendered as the `**Requires:**` line. */
  requires?: string[];
  status: typeof WORKFLOW_STATUS;
  source: WorkflowSource;
  steps: WorkflowStep[];
  dataFlow: DataFlowLink[];
}

/**
 * A project's redaction extensions in serialisable form (patterns as
 * regular-expression sources); see `RedactionOptions`.
 */
export interface RedactionSettings {
  /** More key-name words. */
  keys?: string[];
  /** More value patterns (regular-expression sources). */
  patterns?: string[];
  /** Allow-listed fields (key names or dotted path endings). */
  allow?: string[];
}

/** The JSON twin of `workflows.md`. */
export interface WorkflowDocument {
  format: "workflows/v1";
  title: string;
  /** The API's conventions, rendered as the document's first section. */
  conventions?: ApiConventions;
  /** The project's redaction extensions, stated in the preamble. */
  redaction?: RedactionSettings;
  workflows: Workflow[];
}
