/**
 * Probe finding "no read timeout": connections that never finish their
 * request headers are closed after HEADER_READ_TIMEOUT_MS, and the server
 * keeps answering everybody else.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

async function closedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  const timeout = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms));
  const read = conn.read(new Uint8Array(1024)).catch(() => null);
  return (await Promise.race([read, timeout])) === null;
}

Deno.test("64 connections holding partial headers are closed; the server stays healthy", async () => {
  const server = await startTestServer({
    env: { HEADER_READ_TIMEOUT_MS: "300", IDLE_TIMEOUT_MS: "1000" },
  });
  try {
    const port = Number(new URL(server.url).port);
    const slow = await Promise.all(
      Array.from({ length: 64 }, () => Deno.connect({ hostname: "127.0.0.1", port })),
    );
    for (const conn of slow) {
      await conn.write(
        new TextEncoder().encode("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
      );
    }
    const closed = await Promise.all(slow.map((conn) => closedWithin(conn, 10_000)));
    for (const conn of slow) conn.close();
    assert.equal(closed.filter(Boolean).length, 64);
    const health = await fetch(`${server.url}/api/v1/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
  } finally {
    await server.close();
  }
});
