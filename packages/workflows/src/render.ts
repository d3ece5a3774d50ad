/**
 * Renders the compiled document (`workflows.md`) from its JSON twin.
 *
 * @module
 */
import { renderConventions, renderSettings } from "./conventions.ts";
import { FieldIndex } from "./field_table.ts";
import { cell, fence, headingAnchor, oneLine } from "./markdown.ts";
import { Redactor } from "./redact.ts";
import type {
  ApiStep,
  DataFlowLink,
  RecordedBody,
  Workflow,
  WorkflowDocument,
  WorkflowStep,
} from "./types.ts";

const PREAMBLE_START =
  "This document is generated from the project's integration tests. Each workflow is " +
  "the ordered sequence of HTTP calls a test made against the API, with the request and response " +
  "payloads it observed; only workflows whose test passed in the run that compiled this document " +
  "are included, so every section is verified by a passing test. When writing integration code, " +
  "use only the endpoints, parameter names and call order shown here, copy request shapes " +
  "exactly, and do not invent fields.";

function preamble(doc: WorkflowDocument): string {
  return `${PREAMBLE_START} ${new Redactor(doc.redaction).describe()}`;
}

/**
 * Renders the whole Markdown document: title, `## Conventions` (opening with
 * the preamble) when the document has conventions, else the preamble alone,
 * `## Settings` when the conventions describe the server's settings,
 * table of contents and one section per workflow in the given order. The output depends only on
 * `doc` (no timestamps), so equal inputs give byte-identical documents.
 *
 * @example
 * ```ts
 * import { renderDocument } from "./render.ts";
 * renderDocument({ format: "workflows/v1", title: "API Workflows", workflows: [] });
 * // "# API Workflows\n\nThis document is generated …"
 * ```
 */
export function renderDocument(doc: WorkflowDocument): string {
  const used = new Set<string>(["contents", "conventions", "settings"]);
  const anchors = doc.workflows.map((wf) => headingAnchor(`Workflow: ${oneLine(wf.name)}`, used));
  const parts = [`# ${oneLine(doc.title)}`];
  if (doc.conventions === undefined) parts.push(preamble(doc));
  else parts.push("## Conventions", preamble(doc), renderConventions(doc.conventions));
  const settings = doc.conventions?.settings;
  if (settings !== undefined) {
    const readers = doc.workflows.map((wf, i) => ({ ...wf, anchor: anchors[i] }));
    parts.push("## Settings", renderSettings(settings, readers));
  }
  parts.push("## Contents");
  if (doc.workflows.length === 0) {
    parts.push("_No workflow test passed in the run that compiled this document._");
  } else {
    parts.push(
      doc.workflows.map((wf, i) => `- [${oneLine(wf.name)}](#${anchors[i]}): ${oneLine(wf.intent)}`)
        .join("\n"),
    );
  }
  const fields = new FieldIndex(doc.workflows);
  doc.workflows.forEach((wf, i) => parts.push(renderWorkflow(wf, fields, anchors[i])));
  return parts.join("\n\n") + "\n";
}

/**
 * Renders one workflow section (`## Workflow: …` through `### 3. Data Flow`,
 * the last omitted when no data flow was found). Each step's field table
 * covers the calls in `fields` (default: this workflow's own calls).
 *
 * @example
 * ```ts
 * import { renderWorkflow } from "./render.ts";
 * const md = renderWorkflow({
 *   id: "check_health", name: "Check health", intent: "Confirm the API is up.",
 *   status: "Verified / Test-Gated", source: { file: "./health_test.ts", test: "health", index: 0 },
 *   steps: [{ kind: "api", method: "GET", path: "/health", status: 200 }], dataFlow: [],
 * });
 * md.startsWith("## Workflow: Check health"); // true
 * ```
 */
export function renderWorkflow(
  wf: Workflow,
  fields: FieldIndex = new FieldIndex([wf]),
  anchor?: string,
): string {
  const parts = [
    `## Workflow: ${oneLine(wf.name)}`,
    `**ID:** \`${wf.id}\``,
    `**Intent:** ${oneLine(wf.intent)}`,
    ...(wf.requires?.length ? [`**Requires:** ${wf.requires.map(oneLine).join("; ")}`] : []),
    `**Status:** ${wf.status}`,
    "### 1. Ordered Execution Sequence",
    sequenceTable(wf.steps),
    "### 2. Observed Request & Response Payloads",
  ];
  const api = wf.steps.flatMap((
    step,
    i,
  ) => (step.kind === "api" ? [payloads(step, i + 1, fields, place(wf, i + 1, anchor))] : []));
  parts.push(api.length === 0 ? "_No API calls._" : api.join("\n\n"));
  if (wf.dataFlow.length > 0) parts.push("### 3. Data Flow", wf.dataFlow.map(flowLine).join("\n"));
  return parts.join("\n\n");
}

function names(keys: string[]): string {
  return keys.map((k) => `\`${k}\``).join(", ");
}

/** One line saying which parameters a call sent and what it answered. */
function describeCall(step: ApiStep): string {
  const sent: string[] = [];
  const headers = Object.keys(step.headers ?? {});
  if (headers.length > 0) sent.push(`headers ${names(headers)}`);
  const query = Object.keys(step.query ?? {});
  if (query.length > 0) sent.push(`query ${names(query)}`);
  const body = step.request;
  if (
    body?.type === "json" && body.value && typeof body.value === "object" &&
    !Array.isArray(body.value)
  ) {
    sent.push(`JSON body ${names(Object.keys(body.value))}`);
  } else if (body?.type === "json" || body?.type === "text") {
    sent.push(`a ${body.type === "json" ? "JSON" : "text"} body`);
  }
  const route = step.route && step.route !== step.path ? ` (route \`${step.route}\`)` : "";
  return `${
    sent.length > 0 ? `Sends ${sent.join(" and ")}` : "No parameters"
  }${route}; responds ${step.status}`;
}

function sequenceTable(steps: WorkflowStep[]): string {
  if (steps.length === 0) return "_No steps were recorded._";
  const rows = steps.map((step, i) => {
    const [domain, action, description] = step.kind === "api"
      ? [
        "[Core Service]",
        `${step.method} ${step.path}`,
        describeCall(step),
      ]
      : ["[External/Mocked]", "Client Logic Query", `${step.name} (${step.domain})`];
    return `| ${i + 1} | ${domain} | ${cell(action)} | ${cell(description)} |`;
  });
  return ["| Step | Domain / Boundary | Action | Description |", "|---|---|---|---|", ...rows].join(
    "\n",
  );
}

function place(wf: Workflow, step: number, anchor: string | undefined): string {
  const where = anchor === undefined ? oneLine(wf.name) : `[${oneLine(wf.name)}](#${anchor})`;
  return `Step ${step} of ${where}`;
}

function payloads(step: ApiStep, n: number, fields: FieldIndex, here: string): string {
  const parts = [`#### Step ${n} — ${step.method} ${step.path} → ${step.status}`];
  if (step.route !== undefined && step.route !== step.path) {
    parts.push(`Route: \`${step.method} ${step.route}\``);
  }
  if (step.headers !== undefined) {
    parts.push("Request headers:", fence("json", JSON.stringify(step.headers, null, 2)));
  }
  if (step.query !== undefined) {
    parts.push("Query parameters:", fence("json", JSON.stringify(step.query, null, 2)));
  }
  parts.push(...bodyBlock("Request body", step.request));
  if (step.responseHeaders !== undefined) {
    parts.push("Response headers:", fence("json", JSON.stringify(step.responseHeaders, null, 2)));
  }
  parts.push(...bodyBlock("Response body", step.response));
  const table = fields.table(step, here);
  if (table !== undefined) parts.push(table);
  return parts.join("\n\n");
}

function bodyBlock(label: string, body: RecordedBody | undefined): string[] {
  if (body === undefined) return [`${label}: none`];
  if (body.type === "omitted") return [`${label}: omitted (${body.reason})`];
  if (body.type === "text") return [`${label}:`, fence("text", body.value)];
  return [`${label}:`, fence("json", JSON.stringify(body.value, null, 2))];
}

function flowLine(link: DataFlowLink): string {
  return `- \`${link.from.key}\` from Step ${link.from.step} response → ` +
    `Step ${link.to.step} ${link.to.location} (\`${link.to.key}\`)`;
}
