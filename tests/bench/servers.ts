/**
 * The servers `tests/bench/evaluate.ts` measures, each started in its own
 * process so the load generator, the fake upstream and the server under
 * test never share an event loop:
 *
 *   deno run -A tests/bench/servers.ts bare   # a bare Hono route on Deno.serve
 *   deno run -A tests/bench/servers.ts insert DB_PATH
 *                                             # a bare Hono route that commits one SQLite row per request
 *   deno run -A tests/bench/servers.ts answer JSON_PATH
 *                                             # a bare Hono route answering the JSON document in JSON_PATH
 *   deno run -A tests/bench/servers.ts simple JSON_PATH
 *                                             # an upstream simple index serving the PEP 691 page in
 *                                             # JSON_PATH at /simple/{name}/ (ETag, 304)
 *
 * policyd itself runs as `cli/policyd.ts serve`, exactly as deployed. Each
 * prints `listening PORT` on stdout once it accepts connections.
 *
 * @module
 */
import { Hono } from "hono";
import { DatabaseSync } from "node:sqlite";

function serve(app: Hono): void {
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  }, app.fetch);
  Deno.addSignalListener("SIGTERM", () => void server.shutdown().then(() => Deno.exit(0)));
}

/** A bare route answering a small JSON document. */
function bareApp(): Hono {
  const app = new Hono();
  app.get("/bare", (c) => c.json({ ok: true }));
  return app;
}

/** A bare route that commits one row per request (WAL, synchronous=NORMAL, like the store). */
function insertApp(path: string): Hono {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec(`CREATE TABLE IF NOT EXISTS hits (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ts TEXT NOT NULL, package TEXT NOT NULL)`);
  const insert = db.prepare("INSERT INTO hits (ts, package) VALUES (?, ?)");
  const app = new Hono();
  app.get("/insert", (c) => {
    const result = insert.run(new Date().toISOString(), c.req.query("package") ?? "bare");
    return c.json({ ok: true, id: Number(result.lastInsertRowid) });
  });
  return app;
}

/**
 * A bare route answering a given document (the benchmark passes one real
 * `/evaluate` answer, about 1 KB): what the size of evaluate's answer alone
 * costs a route that does nothing else.
 */
function answerApp(path: string): Hono {
  const answer = JSON.parse(Deno.readTextFileSync(path));
  const app = new Hono();
  app.get("/answer", (c) => c.json(answer));
  return app;
}

/**
 * An upstream simple index with one project page (PEP 691 JSON, as PyPI
 * answers installers), revalidated with ETag: the index benchmark's upstream.
 */
function simpleApp(path: string): Hono {
  const text = Deno.readTextFileSync(path);
  const name = JSON.parse(text).name;
  const etag = `"${text.length}"`;
  const app = new Hono();
  app.get(`/simple/${name}/`, (c) => {
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, { etag });
    return c.body(text, 200, { "content-type": "application/vnd.pypi.simple.v1+json", etag });
  });
  return app;
}

if (import.meta.main) {
  const [kind, path] = Deno.args;
  if (kind === "bare") serve(bareApp());
  else if (kind === "insert" && path) serve(insertApp(path));
  else if (kind === "answer" && path) serve(answerApp(path));
  else if (kind === "simple" && path) serve(simpleApp(path));
  else {
    console.error("usage: servers.ts bare | insert DB_PATH | answer JSON_PATH | simple JSON_PATH");
    Deno.exit(64);
  }
}
