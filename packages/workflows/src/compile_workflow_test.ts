import assert from "node:assert/strict";
import { Hono } from "hono";
import { AgentTestClient } from "./agent_test_client.ts";
import { compileWorkflow } from "./compile_workflow.ts";
import { WorkflowRecorder } from "./recorder.ts";
import type { ApiStep } from "./types.ts";

async function record(fn: (client: AgentTestClient) => Promise<unknown>): Promise<ApiStep[]> {
  const app = new Hono()
    .post("/batch", (c) => c.json({ detail: "too many" }, 400))
    .get("/private", (c) => {
      c.header("www-authenticate", 'Bearer realm="shop"');
      c.header("x-internal", "not published");
      return c.json({ detail: "authentication required" }, 401);
    });
  const recorder = new WorkflowRecorder();
  await recorder.run(() => fn(new AgentTestClient(app, { headers: { "x-agent": "model-7" } })));
  const wf = compileWorkflow({
    name: "Probe",
    intent: "Probe.",
    source: { file: "./p_test.ts", test: "p", index: 0 },
    steps: recorder.steps(),
  });
  return wf.steps as ApiStep[];
}

Deno.test("huge arrays and strings are shown abbreviated, with their size", async () => {
  const [step] = await record((client) =>
    client.post("/batch", {
      json: { packages: Array.from({ length: 501 }, (_, i) => ({ package: `p${i}` })) },
    })
  );
  assert.deepEqual(step.request, {
    type: "json",
    value: {
      packages: [
        { package: "p0" },
        { package: "p1" },
        { package: "p2" },
        "… 498 more items (501 in all)",
      ],
    },
  });
  const [big] = await record((client) =>
    client.post("/batch", { json: { blob: "x".repeat(5000) } })
  );
  assert.deepEqual(big.request, {
    type: "json",
    value: { blob: `${"x".repeat(120)}… (5000 characters in all)` },
  });
});

Deno.test("the headers the test set and the response headers a caller acts on are published", async () => {
  const [step] = await record((client) =>
    client.get("/private", { headers: { "x-policy-project": "shop-api" } })
  );
  assert.deepEqual(step.headers, { "x-agent": "model-7", "x-policy-project": "shop-api" });
  assert.deepEqual(step.responseHeaders, { "www-authenticate": 'Bearer realm="shop"' });
  assert.deepEqual(Object.keys(step), [
    "kind",
    "method",
    "path",
    "route",
    "headers",
    "status",
    "responseHeaders",
    "response",
  ]);
});
