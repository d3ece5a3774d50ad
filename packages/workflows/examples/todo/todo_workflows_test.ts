/**
 * The to-do API's workflow tests: each passing test becomes one section of
 * workflows.md (`deno task docs`).
 */
import { AgentTestClient, stepBoundary, workflow } from "@policyd/workflows";
import { createTodoApp, sequentialIds } from "./app.ts";

const API_KEY = "todo_9Kq2Lm7Vt4Rp8Nb3Wz6Yh1CfQ";

function client() {
  const app = createTodoApp({ apiKey: API_KEY, newId: sequentialIds() });
  return new AgentTestClient(app, { headers: { "x-api-key": API_KEY } });
}

function expect(status: number, actual: number): void {
  if (actual !== status) throw new Error(`expected ${status}, got ${actual}`);
}

Deno.test(
  "plan a week",
  workflow(
    "Plan a week",
    "Create a list, add to-dos with and without a due date, and read the open ones back.",
    async () => {
      const api = client();
      const list = await api.post("/v1/lists", { json: { name: "This week" } });
      expect(201, list.status);
      const { id } = list.json<{ id: string }>();
      expect(
        201,
        (await api.post(`/v1/lists/${id}/todos`, { json: { title: "Buy milk" } })).status,
      );
      const dated = await api.post(`/v1/lists/${id}/todos`, {
        json: { title: "File taxes", due: "2026-04-30" },
      });
      expect(201, dated.status);
      const open = await api.get(`/v1/lists/${id}/todos`, { query: { done: false } });
      expect(200, open.status);
    },
    { requires: "an API key (X-Api-Key)" },
  ),
);

Deno.test(
  "complete a to-do",
  workflow(
    "Complete a to-do",
    "Mark a to-do done, then list only the finished ones.",
    async () => {
      const api = client();
      const { id: listId } = (await api.post("/v1/lists", { json: { name: "Home" } })).json<
        { id: string }
      >();
      const todo = await api.post(`/v1/lists/${listId}/todos`, { json: { title: "Water plants" } });
      const { id } = todo.json<{ id: string }>();
      await stepBoundary("Client-side logic", "Ask the user which to-do is finished", () => id);
      expect(200, (await api.patch(`/v1/todos/${id}`, { json: { done: true } })).status);
      expect(200, (await api.get(`/v1/lists/${listId}/todos`, { query: { done: true } })).status);
    },
    { requires: "an API key (X-Api-Key)" },
  ),
);

Deno.test(
  "page through a long list",
  workflow(
    "Page through a long list",
    "Read a list two to-dos at a time, following next_after until it is absent.",
    async () => {
      const api = client();
      const { id } = (await api.post("/v1/lists", { json: { name: "Errands" } })).json<
        { id: string }
      >();
      for (const title of ["Post office", "Bank"]) {
        await api.post(`/v1/lists/${id}/todos`, { json: { title } });
      }
      await api.post(`/v1/lists/${id}/todos`, { json: { title: "Pharmacy", due: "2026-05-02" } });
      const first = await api.get(`/v1/lists/${id}/todos`, { query: { limit: 2 } });
      const { next_after } = first.json<{ next_after?: string }>();
      if (next_after === undefined) throw new Error("expected a second page");
      const second = await api.get(`/v1/lists/${id}/todos`, {
        query: { limit: 2, after: next_after },
      });
      expect(200, second.status);
      if (second.json<{ next_after?: string }>().next_after !== undefined) {
        throw new Error("expected the last page");
      }
    },
    { requires: "an API key (X-Api-Key)" },
  ),
);

Deno.test(
  "handle a wrong key and a missing to-do",
  workflow(
    "Handle a wrong key and a missing to-do",
    "What the API answers without a valid key, and for a to-do that does not exist.",
    async () => {
      const app = createTodoApp({ apiKey: API_KEY, newId: sequentialIds() });
      const anonymous = new AgentTestClient(app, { headers: { "x-api-key": "wrong" } });
      expect(401, (await anonymous.post("/v1/lists", { json: { name: "X" } })).status);
      expect(404, (await client().delete("/v1/todos/td_9999")).status);
    },
    { requires: "an API key (X-Api-Key)" },
  ),
);
