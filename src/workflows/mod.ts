/**
 * Test-gated workflow documentation: integration tests written with
 * `workflow()`, `AgentTestClient` and `stepBoundary()` compile into
 * `workflows.md` (and its JSON twin) containing exactly the workflows whose
 * tests passed, ready to serve from a Hono app or export as rule files for AI
 * coding assistants. See docs/workflows.md.
 *
 * @example
 * ```ts ignore
 * import { Hono } from "hono";
 * import { AgentTestClient, stepBoundary, workflow } from "./mod.ts";
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
export { AgentResponse } from "./agent_response.ts";
export {
  AgentTestClient,
  type AgentTestClientOptions,
  type ClientTarget,
  type FetchApp,
  type FetchHandler,
  type QueryValue,
  type RequestOptions,
} from "./agent_test_client.ts";
export { stepBoundary } from "./step_boundary.ts";
export { workflow, type WorkflowFn } from "./workflow.ts";
export { workflowId } from "./workflow_id.ts";
export { isSecretKey, redact, REDACTED, redactString } from "./redact.ts";
export { deriveDataFlow } from "./data_flow.ts";
export { type CompileInput, compileWorkflow } from "./compile_workflow.ts";
export { renderDocument, renderWorkflow } from "./render.ts";
export { buildDocument, DEFAULT_TITLE, mergeWorkflows, serializeDocument } from "./document.ts";
export { workflowDocumentSchema, workflowSchema } from "./schema.ts";
export { type RunOptions, runWorkflowTests } from "./runner.ts";
export {
  documentEtag,
  documentResponse,
  type DocumentSource,
  fileSource,
  serveWorkflows,
  type ServeWorkflowsOptions,
} from "./serve.ts";
export {
  INDEX_BUDGET,
  renderIndex,
  renderRuleFiles,
  type RuleFile,
  writeRuleFiles,
} from "./export_rules.ts";
export { parsePlatforms, PLATFORM_TABLE, type PlatformId, PLATFORMS } from "./platforms.ts";
export { BLOCK_BEGIN, BLOCK_END, replaceBlock } from "./marker_block.ts";
export { type CliIo, main, USAGE } from "./cli.ts";
export * from "./types.ts";
