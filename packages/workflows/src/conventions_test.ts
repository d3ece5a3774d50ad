import assert from "node:assert/strict";
import { join } from "node:path";
import { type ApiConventions, loadConventions, renderConventions } from "./conventions.ts";
import { buildDocument, serializeDocument } from "./document.ts";
import { renderIndex, renderRuleFiles } from "./export_rules.ts";
import { parseDocument } from "./parse_document.ts";
import { renderDocument } from "./render.ts";
import { workflowDocumentSchema } from "./schema.ts";
import type { Workflow } from "./types.ts";

const CONVENTIONS: ApiConventions = {
  basePath: "/api/v1",
  authentication: {
    summary: "Send the identity header set by your proxy.",
    modes: [{ name: "none", meaning: "no authentication" }],
  },
  errors: {
    summary: "Errors are problem documents.",
    mediaType: "application/problem+json",
    statuses: [{ name: "401", meaning: "no identity; the response carries WWW-Authenticate" }],
  },
  headers: [{ name: "X-Agent-Model", direction: "request", meaning: "the agent's model" }],
  enumerations: [{ name: "state", values: ["open", "closed"], meaning: "of an order" }],
  notes: ["Lists are newest first."],
};

const ORDER: Workflow = {
  id: "place_an_order",
  name: "Place an order",
  intent: "Create an order.",
  requires: ["an API key", "the `orders` role"],
  status: "Verified / Test-Gated",
  source: { file: "./orders_test.ts", test: "place", index: 0 },
  steps: [{ kind: "api", method: "POST", path: "/api/v1/orders", status: 201 }],
  dataFlow: [],
};

Deno.test("the document opens with ## Conventions, and every workflow shows its Requires line", () => {
  const md = renderDocument(buildDocument([ORDER], "Shop API", CONVENTIONS));
  assert.ok(md.startsWith("# Shop API\n\n## Conventions\n\nThis document is generated"));
  const conventions = md.slice(md.indexOf("## Conventions"), md.indexOf("## Contents"));
  assert.equal(
    conventions.split("\n\n").slice(2).join("\n\n"),
    `**Base path:** \`/api/v1\`. Every path in this document is shown in full, base path included.

### Authentication

Send the identity header set by your proxy.

- **none**: no authentication

### Errors

Errors are problem documents. Media type: \`application/problem+json\`.

- \`401\`: no identity; the response carries WWW-Authenticate

### Headers

- \`X-Agent-Model\` (request): the agent's model

### Enumerations

- \`state\`: \`open\`, \`closed\` — of an order

### Notes

Lists are newest first.

`,
  );
  assert.match(
    md,
    /\*\*Intent:\*\* Create an order\.\n\n\*\*Requires:\*\* an API key; the `orders` role\n\n\*\*Status:\*\*/,
  );
  assert.match(md, /- \[Place an order\]\(#workflow-place-an-order\)/);
});

Deno.test("the JSON twin carries conventions and requires and reads back", () => {
  const json = serializeDocument(buildDocument([ORDER], "Shop API", CONVENTIONS));
  const doc = workflowDocumentSchema.parse(JSON.parse(json));
  assert.deepEqual(doc.conventions, CONVENTIONS);
  assert.deepEqual(doc.workflows[0].requires, ["an API key", "the `orders` role"]);
  assert.deepEqual(Object.keys(JSON.parse(json)), ["format", "title", "conventions", "workflows"]);
});

Deno.test("without conventions or requires the document is as before", () => {
  const md = renderDocument(buildDocument([{ ...ORDER, requires: undefined }]));
  assert.ok(md.startsWith("# API Workflows\n\nThis document is generated"));
  assert.doesNotMatch(md, /Conventions|Requires/);
  assert.equal(renderConventions({}), "");
});

Deno.test("export keeps the conventions: whole in full files, within budget in the index", () => {
  const md = renderDocument(buildDocument([ORDER], "Shop API", CONVENTIONS));
  const summary = parseDocument(md);
  assert.ok(summary.conventions?.startsWith("**Base path:** `/api/v1`."));
  assert.ok(summary.conventions?.endsWith("Lists are newest first."));
  assert.deepEqual(summary.workflows.map((w) => w.id), ["place_an_order"]);
  const [claude] = renderRuleFiles(md, { platforms: ["claude"], link: "workflows.md" });
  assert.match(claude.content, /## Conventions[\s\S]*problem\+json[\s\S]*## Workflow: Place/);
  const index = renderIndex(md, "https://shop.example/api/v1/workflows.md");
  assert.match(
    index,
    /## Conventions\n\n\*\*Base path:\*\*[\s\S]*X-Agent-Model[\s\S]*## Workflows/,
  );
  const small = renderIndex(md, "https://shop.example/api/v1/workflows.md", 1000);
  assert.ok(small.length <= 1000, `${small.length} characters`);
  assert.match(small, /## Workflows\n\n- \*\*Place an order\*\*/);
  assert.match(small, /the rest of the conventions are in the full document/);
});

Deno.test("loadConventions() reads a module's export and rejects what is not a description", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, "good.ts"),
      `export const conventions = ${JSON.stringify(CONVENTIONS)};`,
    );
    await Deno.writeTextFile(join(dir, "bad.ts"), `export default { basePath: "api" };`);
    await Deno.writeTextFile(join(dir, "none.ts"), `export const other = 1;`);
    assert.deepEqual(await loadConventions("good.ts", dir), CONVENTIONS);
    await assert.rejects(loadConventions("bad.ts", dir), /bad\.ts: not a conventions description/);
    await assert.rejects(loadConventions("none.ts", dir), /exports no `conventions`/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("enumeration values with meanings, formats and ## Settings render and read back", () => {
  const conventions: ApiConventions = {
    enumerations: [{
      name: "state",
      values: [{ name: "open", meaning: "may change" }, { name: "closed", meaning: "final" }],
      meaning: "of an order",
    }],
    formats: [{
      name: "order line",
      meaning: "one line of an order",
      schema: '{"type":"object"}',
      example: "sku: A-1",
      exampleLanguage: "yaml",
    }],
    settings: {
      summary: "Environment variables.",
      variables: [
        { name: "SHOP_URL", type: "URL", default: "https://shop.test", meaning: "the shop" },
        { name: "SHOP_TOKEN", type: "string", meaning: "its token" },
      ],
      notes: ["A loopback replay works."],
    },
  };
  const text = renderConventions(conventions);
  assert.match(
    text,
    /- `state`: `open`, `closed` — of an order\n {2}- `open`: may change\n {2}- `closed`: final/,
  );
  assert.match(
    text,
    /\*\*order line\*\*: one line of an order\n\nSchema:\n\n```json\n\{"type":"object"\}\n```\n\nExample:\n\n```yaml\nsku: A-1\n```/,
  );
  const orders: Workflow = { ...ORDER, requires: ["SHOP_URL reachable (or a replay of it)"] };
  const md = renderDocument(buildDocument([orders], "Shop API", conventions));
  const settings = md.slice(md.indexOf("## Settings"), md.indexOf("## Contents"));
  assert.equal(
    settings,
    `## Settings

Environment variables.

| Variable | Type | Default | Purpose | Workflows that need it |
| --- | --- | --- | --- | --- |
| \`SHOP_URL\` | URL | \`https://shop.test\` | the shop | [Place an order](#workflow-place-an-order) |
| \`SHOP_TOKEN\` | string | unset | its token | — |

A loopback replay works.

`,
  );
  const json = serializeDocument(buildDocument([orders], "Shop API", conventions));
  assert.deepEqual(workflowDocumentSchema.parse(JSON.parse(json)).conventions, conventions);
});
