import assert from "node:assert/strict";
import { Hono } from "hono";
import { AgentTestClient } from "./agent_test_client.ts";
import { currentRecorder, WorkflowRecorder } from "./recorder.ts";
import { stepBoundary } from "./step_boundary.ts";

function makeApp() {
  return new Hono()
    .post("/api/v1/items", async (c) => c.json({ id: "itm_1", ...(await c.req.json()) }, 201))
    .get(
      "/api/v1/items/:id",
      (c) => c.json({ id: c.req.param("id"), expand: c.req.query("expand") ?? null }),
    )
    .get("/text", (c) => c.text("plain words"))
    .get(
      "/bin",
      () => new Response(new Uint8Array([0, 1, 2]), { headers: { "content-type": "image/png" } }),
    )
    .delete("/api/v1/items/:id", (c) => c.body(null, 204));
}

Deno.test("AgentTestClient records method, path, route, query, bodies and status inside a workflow", async () => {
  const client = new AgentTestClient(makeApp(), { headers: { "x-api-key": "k-123456" } });
  const recorder = new WorkflowRecorder();
  const decided = await recorder.run(async () => {
    const created = await client.post("/api/v1/items", { json: { name: "widget" } });
    assert.equal(created.status, 201);
    assert.equal(created.statusCode, 201);
    assert.deepEqual(created.json(), { id: "itm_1", name: "widget" });
    assert.deepEqual(created.json(), { id: "itm_1", name: "widget" }, "the body can be read twice");
    const choice = await stepBoundary("Client-side logic", "Pick the item", () => "itm_1");
    const read = await client.get(`/api/v1/items/${choice}?expand=1`, {
      query: { tag: ["a", "b"], skip: undefined },
    });
    assert.equal(read.headers.get("content-type"), "application/json");
    await client.get("/text");
    await client.get("/bin");
    await client.delete("/api/v1/items/itm_1");
    return choice;
  });
  assert.equal(decided, "itm_1");
  const steps = recorder.steps();
  assert.deepEqual(
    steps.map((s) => (s.kind === "api" ? `${s.method} ${s.path} ${s.status}` : s.name)),
    [
      "POST /api/v1/items 201",
      "Pick the item",
      "GET /api/v1/items/itm_1 200",
      "GET /text 200",
      "GET /bin 200",
      "DELETE /api/v1/items/itm_1 204",
    ],
  );
  const [post, , get, text, bin, del] = steps;
  assert.equal(post.kind, "api");
  assert.equal(get.kind, "api");
  if (
    post.kind !== "api" || get.kind !== "api" || text.kind !== "api" || bin.kind !== "api" ||
    del.kind !== "api"
  ) {
    return;
  }
  assert.equal(post.route, "/api/v1/items");
  assert.deepEqual(post.request, { type: "json", value: { name: "widget" } });
  assert.deepEqual(post.response, { type: "json", value: { id: "itm_1", name: "widget" } });
  assert.equal(post.query, undefined);
  assert.equal(get.route, "/api/v1/items/:id");
  assert.deepEqual(get.params, { id: "itm_1" });
  assert.deepEqual(get.query, { expand: "1", tag: ["a", "b"] });
  assert.deepEqual(text.response, { type: "text", value: "plain words" });
  assert.deepEqual(bin.response, { type: "omitted", reason: "image/png, 3 bytes" });
  assert.equal(del.response, undefined);
  assert.equal(steps[1].kind === "boundary" && steps[1].domain, "Client-side logic");
});

Deno.test("AgentTestClient records nothing outside a workflow", async () => {
  assert.equal(currentRecorder(), undefined);
  const recorder = new WorkflowRecorder();
  const client = new AgentTestClient(makeApp());
  await recorder.run(() => client.get("/api/v1/items/inside"));
  const res = await client.get("/api/v1/items/x1");
  assert.equal(res.status, 200);
  assert.deepEqual(recorder.steps().map((s) => s.kind === "api" && s.path), [
    "/api/v1/items/inside",
  ]);
  assert.equal(await stepBoundary("Client", "outside", () => 7), 7);
});

Deno.test("concurrent workflows record only their own calls", async () => {
  const client = new AgentTestClient(makeApp());
  const a = new WorkflowRecorder();
  const b = new WorkflowRecorder();
  const run = (recorder: WorkflowRecorder, prefix: string) =>
    recorder.run(async () => {
      for (let i = 0; i < 5; i++) {
        await client.get(`/api/v1/items/${prefix}${i}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
  await Promise.all([run(a, "a"), run(b, "b")]);
  const paths = (r: WorkflowRecorder) => r.steps().map((s) => (s.kind === "api" ? s.path : ""));
  assert.deepEqual(paths(a), [0, 1, 2, 3, 4].map((i) => `/api/v1/items/a${i}`));
  assert.deepEqual(paths(b), [0, 1, 2, 3, 4].map((i) => `/api/v1/items/b${i}`));
});

Deno.test("concurrent calls inside one workflow keep their start order", async () => {
  const slow = async (req: Request) => {
    const wait = new URL(req.url).pathname === "/slow" ? 20 : 0;
    await new Promise((resolve) => setTimeout(resolve, wait));
    return Response.json({ path: new URL(req.url).pathname });
  };
  const client = new AgentTestClient(slow);
  const recorder = new WorkflowRecorder();
  await recorder.run(() => Promise.all([client.get("/slow"), client.get("/fast")]));
  assert.deepEqual(recorder.steps().map((s) => (s.kind === "api" ? s.path : "")), [
    "/slow",
    "/fast",
  ]);
});

Deno.test("AgentTestClient talks to a plain handler and to a real server by base URL", async () => {
  const handler = (req: Request) =>
    Response.json({ method: req.method, auth: req.headers.get("authorization") });
  const viaHandler = await new AgentTestClient(handler).put("/x", {
    json: {},
    headers: { authorization: "Bearer abc" },
  });
  assert.deepEqual(viaHandler.json(), { method: "PUT", auth: "Bearer abc" });

  const controller = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: controller.signal, onListen: () => {} },
    makeApp().fetch,
  );
  try {
    const client = new AgentTestClient(`http://127.0.0.1:${server.addr.port}/`);
    const recorder = new WorkflowRecorder();
    const res = await recorder.run(() => client.patch("/api/v1/items/zz", { json: { a: 1 } }));
    assert.equal(res.status, 404);
    const got = await client.get("/api/v1/items/zz");
    assert.deepEqual(got.json(), { id: "zz", expand: null });
    const [step] = recorder.steps();
    assert.equal(step.kind === "api" && step.path, "/api/v1/items/zz");
    assert.equal(
      step.kind === "api" && step.route,
      undefined,
      "no route templates without app.routes",
    );
  } finally {
    controller.abort();
    await server.finished;
  }
});
