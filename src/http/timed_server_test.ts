import assert from "node:assert/strict";
import { serveWithTimeouts, type TimedHandler, timedServerAvailable } from "./timed_server.ts";

const encoder = new TextEncoder();

/** Reads until the peer closes the connection (null) or `ms` pass ("open"). */
async function closedWithin(conn: Deno.Conn, ms: number): Promise<"closed" | "open"> {
  const buffer = new Uint8Array(4096);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const read = await Promise.race([
      conn.read(buffer).catch(() => null),
      new Promise<"wait">((resolve) => setTimeout(() => resolve("wait"), deadline - Date.now())),
    ]);
    if (read === null) return "closed";
    if (read === "wait") return "open";
  }
  return "open";
}

/**
 * A timed server on a free loopback port; `handler` answers "ok" unless given.
 * Shut down when the test's `await using` scope ends.
 */
function serveLocal(
  limits: { headerTimeoutMs: number; idleTimeoutMs: number; maxConnections?: number },
  handler: TimedHandler = () => new Response("ok"),
) {
  const server = serveWithTimeouts({ hostname: "127.0.0.1", port: 0, ...limits }, handler);
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.shutdown() });
}

/** A handler that answers `text` once released; `inFlight` settles when a request arrives. */
function heldAnswer(text: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  let started!: () => void;
  const inFlight = new Promise<void>((resolve) => started = resolve);
  const handler = async () => {
    started();
    await gate;
    return new Response(text);
  };
  return { inFlight, release, handler };
}

function connect(port: number) {
  return Deno.connect({ hostname: "127.0.0.1", port });
}

Deno.test("the runtime has what the timed server needs", () => {
  assert.equal(timedServerAvailable(), true);
});

Deno.test("a connection that never finishes its headers is closed; others are served", async () => {
  const seen: string[] = [];
  const server = serveLocal(
    { headerTimeoutMs: 200, idleTimeoutMs: 0 },
    (request, info) => {
      seen.push(`${new URL(request.url).pathname} from ${info.remoteAddr.hostname}`);
      return new Response("ok");
    },
  );
  try {
    const slow = await Promise.all(Array.from({ length: 16 }, () => connect(server.addr.port)));
    for (const conn of slow) await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n"));
    const outcomes = await Promise.all(slow.map((conn) => closedWithin(conn, 5_000)));
    assert.deepEqual(outcomes, slow.map(() => "closed"));
    for (const conn of slow) conn.close();
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/ping`);
    assert.equal(await res.text(), "ok");
    assert.deepEqual(seen, ["/ping from 127.0.0.1"]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("an idle keep-alive connection is closed after the idle time-out", async () => {
  await using server = serveLocal({ headerTimeoutMs: 0, idleTimeoutMs: 200 });
  const conn = await connect(server.addr.port);
  await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  const buffer = new Uint8Array(4096);
  const n = await conn.read(buffer);
  assert.match(new TextDecoder().decode(buffer.subarray(0, n ?? 0)), /^HTTP\/1\.1 200/);
  // Without a next request, the server closes the connection.
  assert.equal(await closedWithin(conn, 5_000), "closed");
  conn.close();
});

Deno.test("without time-outs a half-sent request stays open (what the time-outs fix)", async () => {
  const server = serveLocal({ headerTimeoutMs: 0, idleTimeoutMs: 0 });
  const conn = await connect(server.addr.port);
  await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n"));
  assert.equal(await closedWithin(conn, 400), "open");
  conn.close();
  await server.shutdown();
});

Deno.test("shutdown stops accepting and lets the in-flight request finish", async () => {
  const { inFlight, release, handler } = heldAnswer("finished");
  const server = serveLocal({ headerTimeoutMs: 10_000, idleTimeoutMs: 60_000 }, handler);
  const port = server.addr.port;
  const idle = await connect(port);
  const pending = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.text());
  await inFlight;
  const stopping = server.shutdown();
  // The idle connection is closed at once; the listener no longer accepts.
  assert.equal(await closedWithin(idle, 5_000), "closed");
  idle.close();
  await assert.rejects(connect(port));
  release();
  assert.equal(await pending, "finished");
  await stopping;
  await server.finished;
});

/** Sends one keep-alive GET on `conn` and reads its whole (small) response. */
async function roundTrip(conn: Deno.Conn, path: string): Promise<string> {
  await conn.write(encoder.encode(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
  const buffer = new Uint8Array(4096);
  const n = await conn.read(buffer);
  return new TextDecoder().decode(buffer.subarray(0, n ?? 0));
}

Deno.test("a keep-alive connection in use past the idle time-out stays open", async () => {
  await using server = serveLocal({ headerTimeoutMs: 150, idleTimeoutMs: 150 });
  const conn = await connect(server.addr.port);
  // Six requests 60 ms apart span 360 ms, more than twice the idle time-out:
  // each one moves the deadline, so none finds the connection closed.
  for (let i = 0; i < 6; i++) {
    assert.match(await roundTrip(conn, `/${i}`), /^HTTP\/1\.1 200/);
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
  assert.equal(await closedWithin(conn, 5_000), "closed");
  conn.close();
});

Deno.test("a request answered slower than the idle time-out is not cut off", async () => {
  const server = serveLocal(
    { headerTimeoutMs: 100, idleTimeoutMs: 100 },
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 350));
      return new Response("slow but answered");
    },
  );
  try {
    const conn = await connect(server.addr.port);
    const answer = await roundTrip(conn, "/slow");
    assert.match(answer, /^HTTP\/1\.1 200/);
    assert.match(answer, /slow but answered/);
    conn.close();
  } finally {
    await server.shutdown();
  }
});

Deno.test("a body streamed for longer than the idle time-out is sent whole", async () => {
  const chunks = 6;
  const server = serveLocal(
    { headerTimeoutMs: 100, idleTimeoutMs: 100 },
    () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 60));
          controller.enqueue(encoder.encode(`chunk ${sent}\n`));
          if (++sent === chunks) controller.close();
        },
      });
      return new Response(body);
    },
  );
  try {
    const text = await (await fetch(`http://127.0.0.1:${server.addr.port}/download`)).text();
    assert.equal(text, Array.from({ length: chunks }, (_, i) => `chunk ${i}\n`).join(""));
  } finally {
    await server.shutdown();
  }
});

Deno.test("an answer given during shutdown says Connection: close", async () => {
  const { inFlight, release, handler } = heldAnswer("last");
  const server = serveLocal({ headerTimeoutMs: 10_000, idleTimeoutMs: 60_000 }, handler);
  const conn = await connect(server.addr.port);
  const answer = roundTrip(conn, "/slow");
  await inFlight;
  const stopping = server.shutdown();
  release();
  const text = await answer;
  assert.match(text, /^HTTP\/1\.1 200/);
  assert.match(text, /\r\nconnection: close\r\n/i);
  assert.equal(await closedWithin(conn, 5_000), "closed");
  conn.close();
  await stopping;
});

Deno.test("closed connections free their place under maxConnections", async () => {
  await using server = serveLocal({
    headerTimeoutMs: 5_000,
    idleTimeoutMs: 5_000,
    maxConnections: 2,
  });
  // The server notices a peer's close on its own schedule: a freed place
  // shows as a 200 within a few tries; a leaked one never does.
  const served = async () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const conn = await connect(server.addr.port);
      const answer = await roundTrip(conn, "/");
      if (/^HTTP\/1\.1 200/.test(answer)) return conn;
      conn.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("no place freed");
  };
  for (let round = 0; round < 3; round++) {
    const conns = [await served(), await served()];
    for (const conn of conns) conn.close();
  }
});

Deno.test("an answer that leaves a request body unread closes the connection; a bodiless POST does not", async () => {
  await using server = serveLocal({ headerTimeoutMs: 5_000, idleTimeoutMs: 5_000 });
  const conn = await connect(server.addr.port);
  const post = (extra: string) =>
    conn.write(encoder.encode(`POST / HTTP/1.1\r\nHost: x\r\n${extra}\r\n`));
  const buffer = new Uint8Array(4096);
  // No body: the connection stays usable past the close grace.
  await post("Content-Length: 0\r\n");
  assert.match(
    new TextDecoder().decode(buffer.subarray(0, (await conn.read(buffer)) ?? 0)),
    /200/,
  );
  await new Promise((resolve) => setTimeout(resolve, 600));
  // A body the handler never reads: the server closes after its answer.
  await post("Content-Length: 100000\r\n");
  await conn.write(encoder.encode("x".repeat(1000)));
  assert.match(
    new TextDecoder().decode(buffer.subarray(0, (await conn.read(buffer)) ?? 0)),
    /200/,
  );
  assert.equal(await closedWithin(conn, 5_000), "closed");
  conn.close();
});
