/**
 * The second security probe (issue 34) in the suite, over real sockets and
 * bounded in time: chunked and trickled bodies are cut off within the read
 * deadline (before authentication in org mode), MCP batches are refused,
 * rebinding `Host` names reach nothing, the connection cap answers 503, and
 * a server whose descriptors run out (a child under `ulimit -n`) serves
 * again once connections close.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { auditCount } from "../helpers/db.ts";
import { startTestServer, type TestServer, withTestServer } from "../helpers/server.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { spawnServe } from "../helpers/serve_process.ts";

const encoder = new TextEncoder();
const ORG_MODE = { AUTH_ENABLED: "true", AUTH_BACKEND: "header" };

function portOf(server: TestServer): number {
  return Number(new URL(server.url).port);
}

/** Reads what the server sends until it closes the connection or `ms` pass. */
async function answerWithin(
  conn: Deno.Conn,
  ms: number,
): Promise<{ text: string; closed: boolean }> {
  const chunks: string[] = [];
  const buffer = new Uint8Array(16384);
  const deadline = Date.now() + ms;
  const decoder = new TextDecoder();
  while (Date.now() < deadline) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = await Promise.race([
      conn.read(buffer).catch(() => null),
      new Promise<"wait">((resolve) =>
        timer = setTimeout(() => resolve("wait"), deadline - Date.now())
      ),
    ]);
    clearTimeout(timer);
    if (read === "wait") break;
    if (read === null) return { text: chunks.join(""), closed: true };
    chunks.push(decoder.decode(buffer.subarray(0, read)));
  }
  return { text: chunks.join(""), closed: false };
}

/** Sends `head`, then `chunk` every `everyMs` until the server answers (or `ms` pass). */
async function trickle(
  port: number,
  head: string,
  chunk: string,
  everyMs: number,
  ms: number,
): Promise<{ text: string; closed: boolean; elapsedMs: number }> {
  const started = Date.now();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(head));
  let sending = true;
  const sender = (async () => {
    while (sending) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (!sending) break;
      try {
        await conn.write(encoder.encode(chunk));
      } catch {
        break; // the server closed the connection
      }
    }
  })();
  try {
    const answer = await answerWithin(conn, ms);
    return { ...answer, elapsedMs: Date.now() - started };
  } finally {
    sending = false;
    await sender;
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

const CHUNK = "10\r\n" + "x".repeat(16) + "\r\n";

Deno.test("probe: a trickled chunked body is cut off with 408 within the read deadline", async () => {
  await withTestServer({ env: { REQUEST_READ_TIMEOUT_MS: "400" } }, async (server) => {
    const head = `POST /api/v1/evaluate/batch HTTP/1.1\r\nHost: 127.0.0.1:${portOf(server)}\r\n` +
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const answer = await trickle(portOf(server), head, CHUNK, 50, 5_000);
    assert.match(answer.text, /^HTTP\/1\.1 408/);
    assert.match(answer.text, /request-timeout/);
    assert.ok(answer.closed, "the connection is closed after the 408");
    assert.ok(answer.elapsedMs < 3_000, `cut off after ${answer.elapsedMs} ms`);
  });
});

Deno.test("probe: a trickled body on POST /mcp is cut off too (fixed length and chunked)", async () => {
  await withTestServer({ env: { REQUEST_READ_TIMEOUT_MS: "400" } }, async (server) => {
    const port = portOf(server);
    for (
      const framing of ["Content-Length: 1000000", "Transfer-Encoding: chunked"]
    ) {
      const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${framing}\r\n\r\n`;
      const answer = await trickle(
        port,
        head,
        framing.startsWith("Transfer") ? CHUNK : "x",
        50,
        5_000,
      );
      assert.match(answer.text, /^HTTP\/1\.1 408/, framing);
      assert.ok(answer.elapsedMs < 3_000, `${framing}: cut off after ${answer.elapsedMs} ms`);
    }
  });
});

Deno.test("probe: a chunked body over the size limit is refused with 413 as it passes the limit", async () => {
  await withTestServer({}, async (server) => {
    const port = portOf(server);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await conn.write(encoder.encode(
        `POST /api/v1/evaluate/batch HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      ));
      const big = "10000\r\n" + "x".repeat(0x10000) + "\r\n";
      const writing = (async () => {
        for (let i = 0; i < 40; i++) await conn.write(encoder.encode(big));
      })().catch(() => {});
      const answer = await answerWithin(conn, 10_000);
      await writing;
      assert.match(answer.text, /^HTTP\/1\.1 413/);
    } finally {
      conn.close();
    }
  });
});

Deno.test("probe: in org mode an unauthenticated trickled body gets 401 before any of it is read", async () => {
  await withTestServer(
    { env: { ...ORG_MODE, REQUEST_READ_TIMEOUT_MS: "20000" } },
    async (server) => {
      const port = portOf(server);
      for (const path of ["/mcp", "/api/v1/evaluate/batch", "/api/v1/approval-requests"]) {
        const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        const answer = await trickle(port, head, CHUNK, 50, 5_000);
        assert.match(answer.text, /^HTTP\/1\.1 401/, path);
        assert.ok(answer.elapsedMs < 2_000, `${path}: answered after ${answer.elapsedMs} ms`);
      }
    },
  );
});

Deno.test("probe: shutdown does not wait on a body that trickles past its deadline", async () => {
  const server = await startTestServer({
    env: { REQUEST_READ_TIMEOUT_MS: "300" },
  });
  const port = portOf(server);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(
    `POST /api/v1/evaluate/batch HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
  ));
  let sending = true;
  const sender = (async () => {
    while (sending) {
      await new Promise((r) => setTimeout(r, 50));
      await conn.write(encoder.encode(CHUNK)).catch(() => sending = false);
    }
  })();
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await server.close();
  const took = Date.now() - started;
  sending = false;
  await sender;
  conn.close();
  assert.ok(took < 6_000, `shutdown took ${took} ms`);
});

Deno.test("probe: JSON-RPC batches on /mcp are refused and evaluate nothing", async () => {
  await withTestServer({ env: { RATE_LIMIT_PER_MINUTE: "5" } }, async (server) => {
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "check_package", arguments: { package: "requests" } },
    });
    const before = auditCount(server.dbPath);
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(Array.from({ length: 45 }, (_, i) => call(i + 1))),
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /batch/);
    assert.equal(auditCount(server.dbPath), before, "no evaluation was audited");
  });
});

Deno.test("probe: a rebinding Host is refused with 421 on every route, in both modes", async () => {
  for (const env of [{}, ORG_MODE]) {
    await withTestServer({ env }, async (server) => {
      const port = portOf(server);
      const evil = `evil.rebind:${port}`;
      const attempts: Array<[string, string, string | undefined]> = [
        [
          "POST",
          "/api/v1/registry/proposals",
          JSON.stringify({ rule: { name: "evil", status: "approved" } }),
        ],
        ["GET", "/api/v1/audit", undefined],
        ["GET", "/api/v1/health", undefined],
        ["POST", "/mcp", "{}"],
        ["GET", "/dashboard/audit", undefined],
      ];
      for (const [method, path, body] of attempts) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        try {
          const length = body === undefined
            ? ""
            : `Content-Length: ${encoder.encode(body).length}\r\n`;
          await conn.write(encoder.encode(
            `${method} ${path} HTTP/1.1\r\nHost: ${evil}\r\nOrigin: http://${evil}\r\n` +
              `Content-Type: application/json\r\nX-Forwarded-User: alice\r\n` +
              `X-Forwarded-Groups: policy-admins\r\n${length}Connection: close\r\n\r\n${
                body ?? ""
              }`,
          ));
          const answer = await answerWithin(conn, 5_000);
          assert.match(answer.text, /^HTTP\/1\.1 421/, `${method} ${path}`);
          assert.match(answer.text, /misdirected-request/);
        } finally {
          conn.close();
        }
      }
      const registry = await (await fetch(`${server.url}/api/v1/registry`, {
        headers: { "x-forwarded-user": "alice", "x-forwarded-groups": "policy-admins" },
      })).json();
      assert.ok(!registry.packages.some((p: { name: string }) => p.name === "evil"));
    });
  }
});

Deno.test("probe: loopback names and ALLOWED_HOSTS pass; a foreign Origin on an allowed Host is 403", async () => {
  await withTestServer({ env: { ALLOWED_HOSTS: "policy.example.com" } }, async (server) => {
    const port = portOf(server);
    const send = async (host: string, origin?: string) => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      try {
        await conn.write(encoder.encode(
          `POST /api/v1/registry/reload HTTP/1.1\r\nHost: ${host}\r\n` +
            (origin ? `Origin: ${origin}\r\n` : "") + "Connection: close\r\n\r\n",
        ));
        return Number((await answerWithin(conn, 5_000)).text.slice(9, 12));
      } finally {
        conn.close();
      }
    };
    assert.equal(await send(`localhost:${port}`), 200);
    assert.equal(await send(`127.0.0.1:${port}`, `http://127.0.0.1:${port}`), 200);
    assert.equal(await send(`[::1]:${port}`), 200);
    assert.equal(await send("policy.example.com"), 200);
    assert.equal(await send("policy.example.com.evil"), 421);
    // The Origin is checked against configured names, not against the Host it came with.
    assert.equal(await send(`127.0.0.1:${port}`, `http://evil.rebind:${port}`), 403);
    assert.equal(await send(`127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`), 403);
  });
});

Deno.test("probe: beyond MAX_CONNECTIONS a connection gets 503; the others are served", async () => {
  await withTestServer({ env: { MAX_CONNECTIONS: "4" } }, async (server) => {
    const port = portOf(server);
    const held = await Promise.all(
      Array.from({ length: 4 }, () => Deno.connect({ hostname: "127.0.0.1", port })),
    );
    try {
      await new Promise((r) => setTimeout(r, 100));
      const extra = await Deno.connect({ hostname: "127.0.0.1", port });
      await extra.write(
        encoder.encode(`GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
      ).catch(() => {});
      const answer = await answerWithin(extra, 5_000);
      extra.close();
      assert.match(answer.text, /^HTTP\/1\.1 503/);
      assert.match(answer.text, /too-many-connections/);
      await held[0].write(
        encoder.encode(`GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
      );
      assert.match((await answerWithin(held[0], 2_000)).text, /^HTTP\/1\.1 200/);
    } finally {
      for (const conn of held) conn.close();
    }
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(`${server.url}/api/v1/health`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  });
});

Deno.test("probe: after descriptor exhaustion (ulimit -n in a child) the server serves again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-fd-" });
  await Deno.writeTextFile(join(dir, "registry.yaml"), await readExampleRegistry());
  const child = spawnServe({
    cwd: dir,
    openFiles: 96,
    env: {
      POLICY_DB_PATH: join(dir, "policyd.db"),
      REGISTRY_PATH: join(dir, "registry.yaml"),
      REGISTRY_RELOAD_INTERVAL: "0",
      REDIS_URL: "none",
      CVE_SCAN_SCHEDULE: "off",
      MAX_CONNECTIONS: "0",
      LOG_LEVEL: "warn",
    },
  });
  const stderr = new Response(child.stderr).text();
  const held: Deno.Conn[] = [];
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    const started = Date.now();
    while (!/listening on (http:\/\/\S+)/.test(out) && Date.now() - started < 60_000) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    assert.ok(url, `the child printed its address: ${out}`);
    (async () => {
      while (!(await reader.read()).done) { /* drain */ }
    })();
    const port = Number(new URL(url).port);
    // More connections than the child has descriptors: its accept() fails with EMFILE.
    for (let i = 0; i < 160; i++) {
      held.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    }
    await new Promise((r) => setTimeout(r, 500));
    for (const conn of held.splice(0)) conn.close();
    // Once the connections are gone, it serves again (or it exited non-zero).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`${url}/api/v1/health`).catch(() => null);
      status = res?.status ?? 0;
      await res?.body?.cancel();
    }
    assert.equal(status, 200, "the server serves again after the descriptors came back");
    child.kill("SIGTERM");
    const exit = await child.status;
    assert.equal(exit.code, 0);
    const log = await stderr;
    assert.match(log, /accept failed; retrying/, "the accept errors were logged");
    assert.match(log, /EMFILE|Too many open files/);
  } finally {
    for (const conn of held) conn.close();
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
