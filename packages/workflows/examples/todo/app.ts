/**
 * A small to-do API (Hono): lists, to-dos, completion, paging. Ids come from
 * an injectable source so the workflow document is the same on every run.
 *
 * @module
 */
import { Hono } from "hono";

/** A to-do item. */
export interface Todo {
  id: string;
  list_id: string;
  title: string;
  due?: string;
  done: boolean;
}

/** What the app needs from outside. */
export interface TodoAppOptions {
  /** The key callers send in `X-Api-Key`. */
  apiKey: string;
  /** Makes ids; the default counts per prefix (`td_0001`). */
  newId?: (prefix: string) => string;
}

/** A counter-based id source: `td_0001`, `td_0002`, … per prefix. */
export function sequentialIds(): (prefix: string) => string {
  const next = new Map<string, number>();
  return (prefix) => {
    const n = (next.get(prefix) ?? 0) + 1;
    next.set(prefix, n);
    return `${prefix}_${String(n).padStart(4, "0")}`;
  };
}

const problem = (status: 400 | 401 | 404, title: string, detail: string) =>
  new Response(JSON.stringify({ type: "about:blank", title, status, detail }), {
    status,
    headers: { "content-type": "application/problem+json" },
  });

/** Builds the app; every route under `/v1` needs the API key. */
export function createTodoApp(options: TodoAppOptions) {
  const newId = options.newId ?? sequentialIds();
  const lists = new Map<string, { id: string; name: string }>();
  const todos = new Map<string, Todo>();

  return new Hono()
    .get("/health", (c) => c.json({ ok: true }))
    .use("/v1/*", async (c, next) => {
      if (c.req.header("x-api-key") !== options.apiKey) {
        return problem(401, "Unauthorized", "send the API key in X-Api-Key");
      }
      await next();
    })
    .post("/v1/lists", async (c) => {
      const body = await c.req.json().catch(() => ({}));
      if (typeof body.name !== "string" || body.name === "") {
        return problem(400, "Bad Request", "`name` is required");
      }
      const list = { id: newId("ls"), name: body.name };
      lists.set(list.id, list);
      return c.json(list, 201, { location: `/v1/lists/${list.id}` });
    })
    .post("/v1/lists/:listId/todos", async (c) => {
      const listId = c.req.param("listId");
      if (!lists.has(listId)) return problem(404, "Not Found", `no list ${listId}`);
      const body = await c.req.json().catch(() => ({}));
      if (typeof body.title !== "string" || body.title === "") {
        return problem(400, "Bad Request", "`title` is required");
      }
      const todo: Todo = {
        id: newId("td"),
        list_id: listId,
        title: body.title,
        ...(typeof body.due === "string" ? { due: body.due } : {}),
        done: false,
      };
      todos.set(todo.id, todo);
      return c.json(todo, 201);
    })
    .get("/v1/lists/:listId/todos", (c) => {
      const listId = c.req.param("listId");
      if (!lists.has(listId)) return problem(404, "Not Found", `no list ${listId}`);
      const done = c.req.query("done");
      const limit = Math.min(Number(c.req.query("limit") ?? "50") || 50, 50);
      const after = c.req.query("after");
      let items = [...todos.values()].filter((t) => t.list_id === listId);
      if (done !== undefined) items = items.filter((t) => String(t.done) === done);
      if (after !== undefined) items = items.filter((t) => t.id > after);
      const page = items.slice(0, limit);
      const next = items.length > limit ? page.at(-1)?.id : undefined;
      return c.json({ items: page, ...(next ? { next_after: next } : {}) });
    })
    .patch("/v1/todos/:id", async (c) => {
      const todo = todos.get(c.req.param("id"));
      if (!todo) return problem(404, "Not Found", `no to-do ${c.req.param("id")}`);
      const body = await c.req.json().catch(() => ({}));
      if (typeof body.done === "boolean") todo.done = body.done;
      if (typeof body.title === "string" && body.title !== "") todo.title = body.title;
      return c.json(todo);
    })
    .delete("/v1/todos/:id", (c) => {
      if (!todos.delete(c.req.param("id"))) {
        return problem(404, "Not Found", `no to-do ${c.req.param("id")}`);
      }
      return c.body(null, 204);
    });
}
