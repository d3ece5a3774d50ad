import assert from "node:assert/strict";
import { buildDocument } from "./document.ts";
import { renderDocument } from "./render.ts";
import type { Workflow } from "./types.ts";

const WORKFLOW: Workflow = {
  id: "check_a_package_before_adding_it",
  name: "Check a package before adding it",
  intent: "Ask whether a Python package may be added.",
  status: "Verified / Test-Gated",
  source: { file: "./tests/evaluate_test.ts", test: "evaluate", index: 0 },
  steps: [
    {
      kind: "api",
      method: "GET",
      path: "/api/v1/evaluate",
      route: "/api/v1/evaluate",
      query: { package: "requests" },
      status: 200,
      response: { type: "json", value: { verdict: "allow", audit_id: "aud_123" } },
    },
    { kind: "boundary", domain: "Client-side logic", name: "Decide whether to add the dependency" },
    {
      kind: "api",
      method: "POST",
      path: "/api/v1/approval-requests",
      route: "/api/v1/approval-requests",
      request: { type: "json", value: { audit_id: "aud_123" } },
      status: 201,
      response: { type: "text", value: "created ```" },
    },
  ],
  dataFlow: [{
    from: { step: 1, key: "audit_id" },
    to: { step: 3, location: "request body", key: "audit_id" },
  }],
};

const EXPECTED_SECTION = `## Workflow: Check a package before adding it

**ID:** \`check_a_package_before_adding_it\`

**Intent:** Ask whether a Python package may be added.

**Status:** Verified / Test-Gated

### 1. Ordered Execution Sequence

| Step | Domain / Boundary | Action | Description |
|---|---|---|---|
| 1 | [Core Service] | GET /api/v1/evaluate | Sends query \`package\`; responds 200 |
| 2 | [External/Mocked] | Client Logic Query | Decide whether to add the dependency (Client-side logic) |
| 3 | [Core Service] | POST /api/v1/approval-requests | Sends JSON body \`audit_id\`; responds 201 |

### 2. Observed Request & Response Payloads

#### Step 1 — GET /api/v1/evaluate → 200

Query parameters:

\`\`\`json
{
  "package": "requests"
}
\`\`\`

Request body: none

Response body:

\`\`\`json
{
  "verdict": "allow",
  "audit_id": "aud_123"
}
\`\`\`

Fields observed across the document's 1 call of \`GET /api/v1/evaluate\` and its 1 response with status 200:

| Field | In | Type | Example | Present |
|---|---|---|---|---|
| \`package\` | query | string | \`"requests"\` | always |
| \`verdict\` | response | string | \`"allow"\` | always |
| \`audit_id\` | response | string | \`"aud_123"\` | always |

#### Step 3 — POST /api/v1/approval-requests → 201

Request body:

\`\`\`json
{
  "audit_id": "aud_123"
}
\`\`\`

Response body:

\`\`\`\`text
created \`\`\`
\`\`\`\`

Fields observed across the document's 1 call of \`POST /api/v1/approval-requests\` and its 1 response with status 201:

| Field | In | Type | Example | Present |
|---|---|---|---|---|
| \`audit_id\` | body | string | \`"aud_123"\` | always |

### 3. Data Flow

- \`audit_id\` from Step 1 response → Step 3 request body (\`audit_id\`)
`;

Deno.test("renderDocument() renders the seed's section format exactly", () => {
  const md = renderDocument(buildDocument([WORKFLOW]));
  assert.ok(
    md.startsWith(
      "# API Workflows\n\nThis document is generated from the project's integration tests.",
    ),
  );
  assert.match(md, /only workflows whose test passed in the run that compiled this document/);
  assert.ok(
    md.includes(
      "## Contents\n\n- [Check a package before adding it](#workflow-check-a-package-before-adding-it): Ask whether a Python package may be added.\n\n",
    ),
  );
  assert.ok(md.endsWith(EXPECTED_SECTION), md);
});

Deno.test("renderDocument() omits Data Flow when nothing matched and shows route templates", () => {
  const wf: Workflow = {
    ...WORKFLOW,
    dataFlow: [],
    steps: [{ kind: "api", method: "GET", path: "/items/42", route: "/items/:id", status: 404 }],
  };
  const md = renderDocument(buildDocument([wf]));
  assert.equal(md.includes("### 3. Data Flow"), false);
  assert.ok(
    md.includes(
      "| 1 | [Core Service] | GET /items/42 | No parameters (route `/items/:id`); responds 404 |",
    ),
  );
  assert.ok(
    md.includes(
      "#### Step 1 — GET /items/42 → 404\n\nRoute: `GET /items/:id`\n\nRequest body: none\n\nResponse body: none",
    ),
  );
});

Deno.test("buildDocument() orders by test file then declaration index, and rejects duplicate IDs", () => {
  const at = (file: string, index: number, name: string): Workflow => ({
    ...WORKFLOW,
    name,
    id: name.toLowerCase(),
    source: { file, test: name, index },
  });
  const doc = buildDocument([
    at("./b_test.ts", 0, "B0"),
    at("./a_test.ts", 1, "A1"),
    at("./a_test.ts", 0, "A0"),
  ]);
  assert.deepEqual(doc.workflows.map((wf) => wf.name), ["A0", "A1", "B0"]);
  assert.throws(
    () => buildDocument([at("./a_test.ts", 0, "Same"), at("./b_test.ts", 0, "Same")]),
    /ID "same" is used by "Same" \(\.\/a_test\.ts\) and "Same" \(\.\/b_test\.ts\)/,
  );
});

Deno.test("renderDocument() is stable for an empty document", () => {
  const md = renderDocument(buildDocument([]));
  assert.ok(
    md.endsWith(
      "## Contents\n\n_No workflow test passed in the run that compiled this document._\n",
    ),
  );
});

Deno.test("field tables: types, examples and presence across every call of an endpoint, written once", () => {
  const call = (query: Record<string, string>, value: unknown): Workflow["steps"][number] => ({
    kind: "api",
    method: "GET",
    path: "/items",
    query,
    status: 200,
    response: { type: "json", value },
  });
  const first: Workflow = {
    ...WORKFLOW,
    id: "list_items",
    name: "List items",
    dataFlow: [],
    steps: [
      call({ limit: "2" }, { items: [{ id: "i_1", due: null }], next: "c_2" }),
      call({ limit: "2", cursor: "c_2" }, { items: [{ id: "i_3", due: "2026-01-02" }] }),
    ],
  };
  const second: Workflow = {
    ...first,
    id: "list_again",
    name: "List again",
    source: { ...first.source, index: 1 },
    steps: [call({ limit: "5" }, { items: [] })],
  };
  const md = renderDocument(buildDocument([first, second]));
  const table = [
    "Fields observed across the document's 3 calls of `GET /items` and its 3 responses with status 200:",
    "",
    "| Field | In | Type | Example | Present |",
    "|---|---|---|---|---|",
    '| `limit` | query | string | `"2"` | always |',
    '| `cursor` | query | string | `"c_2"` | optional (1 of 3) |',
    "| `items` | response | array |  | always |",
    "| `items[]` | response | object |  | optional (2 of 3) |",
    '| `items[].id` | response | string | `"i_1"` | optional (2 of 3) |',
    '| `items[].due` | response | null \\| string | `"2026-01-02"` | optional (2 of 3) |',
    '| `next` | response | string | `"c_2"` | optional (1 of 3) |',
  ].join("\n");
  assert.ok(md.includes(table), md);
  assert.equal(md.split("Fields observed across").length - 1, 1, "the table is written once");
  assert.ok(md.includes(
    "Fields of `GET /items` → 200: see the table at Step 1 of [List items](#workflow-list-items).",
  ));
});
