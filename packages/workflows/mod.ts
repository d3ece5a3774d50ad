/**
 * Test-gated workflow documentation: integration tests written with
 * `workflow()`, `AgentTestClient` and `stepBoundary()` compile into
 * `workflows.md` (and its JSON twin) containing exactly the workflows whose
 * tests passed, ready to serve from a Hono app or export as rule files for AI
 * coding assistants. The runner is `@policyd/workflows/runner`; serving and
 * export are also their own entry points (`./serve`, `./export`). See the
 * package's README.md.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { AgentTestClient, stepBoundary, workflow } from "@policyd/workflows";
 *
 * const app = new Hono()
 *   .post("/orders", (c) => c.json({ order_id: "ord_123" }, 201))
 *   .get("/orders/:id", (c) => c.json({ order_id: c.req.param("id"), state: "paid" }));
 *
 * Deno.test("place an order", workflow("Place an order", "Create an order and read it back.", async () => {
 *   const client = new AgentTestClient(app);
 *   const created = await client.post("/orders", { json: { sku: "A-1" } });
 *   const { order_id } = created.json<{ order_id: string }>();
 *   await stepBoundary("Client-side logic", "Show the order number", () => order_id);
 *   const read = await client.get(`/orders/${order_id}`);
 *   if (read.status !== 200) throw new Error("not found");
 * }));
 * ```
 *
 * @module
 */
export { AgentResponse } from "./src/agent_response.ts";
export {
  AgentTestClient,
  type AgentTestClientOptions,
  type ClientTarget,
  type FetchApp,
  type FetchHandler,
  type QueryValue,
  type RequestOptions,
} from "./src/agent_test_client.ts";
export { stepBoundary } from "./src/step_boundary.ts";
export { workflow, type WorkflowFn } from "./src/workflow.ts";
export { workflowId } from "./src/workflow_id.ts";
export {
  DEFAULT_ALLOWED_FIELDS,
  HIGH_ENTROPY_RULE,
  isHighEntropy,
  isSecretKey,
  redact,
  REDACTED,
  type RedactionOptions,
  Redactor,
  redactString,
  SECRET_KEY_WORDS,
  TOKEN_SHAPES,
  type TokenShape,
} from "./src/redact.ts";
export {
  FRONT_MATTER_KEY,
  type RememberedOptions,
  renderFrontMatter,
  splitFrontMatter,
} from "./src/front_matter.ts";
export { FieldIndex, type FieldLocation, MAX_FIELD_ROWS } from "./src/field_table.ts";
export { type WorkflowOptions } from "./src/workflow.ts";
export { writeFileAtomic } from "./src/atomic_write.ts";
export { deriveDataFlow } from "./src/data_flow.ts";
export { type CompileInput, compileWorkflow } from "./src/compile_workflow.ts";
export { renderDocument, renderWorkflow } from "./src/render.ts";
export { buildDocument, DEFAULT_TITLE, mergeWorkflows, serializeDocument } from "./src/document.ts";
export { redactionSchema, workflowDocumentSchema, workflowSchema } from "./src/schema.ts";
export { type RunOptions, runWorkflowTests } from "./src/runner.ts";
export { type CliIo, main, USAGE } from "./src/cli.ts";
export {
  type ApiConventions,
  type ConventionEnumeration,
  type ConventionFormat,
  type ConventionHeader,
  type ConventionItem,
  type ConventionSetting,
  type ConventionSettings,
  conventionsSchema,
  loadConventions,
  renderConventions,
  renderSettings,
  type SettingsReader,
} from "./src/conventions.ts";
export * from "./serve.ts";
export * from "./export.ts";
export * from "./src/types.ts";
