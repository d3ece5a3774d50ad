/**
 * Serves the to-do API and its workflow document (`deno task serve`).
 *
 * @module
 */
import { fileSource, serveWorkflows } from "@policyd/workflows/serve";
import { createTodoApp } from "./app.ts";

/** The to-do API with its workflow document mounted. */
export const app = createTodoApp({ apiKey: Deno.env.get("TODO_API_KEY") ?? "dev-key" });
serveWorkflows(app, {
  path: "/workflows.md", // public: outside /v1, which needs the key
  markdown: fileSource(new URL("./workflows.md", import.meta.url)),
  json: fileSource(new URL("./workflows.json", import.meta.url)),
});

if (import.meta.main) Deno.serve({ port: 8787 }, app.fetch);
