import assert from "node:assert/strict";
import { http1Request, parseResponse } from "./http1.ts";
import { defaultTransport, fetchTransport } from "./transport.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("parseResponse() reads status, headers and Content-Length, chunked or unbounded bodies", async (t) => {
  const cases: Array<[string, string, number, string]> = [
    ["content-length", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\r\n\r\n{}junk", 200, "{}"],
    [
      "chunked",
      "HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n4\r\nab\u00e9\r\n2;x=y\r\n}!\r\n0\r\n\r\n",
      404,
      "ab\u00e9}!",
    ],
    ["to the end", "HTTP/1.0 500 Oops\r\n\r\nboom", 500, "boom"],
    ["no reason phrase", "HTTP/1.1 204\r\n\r\n", 204, ""],
  ];
  for (const [label, raw, status, text] of cases) {
    await t.step(label, () => {
      const answer = parseResponse(bytes(raw));
      assert.equal(answer.status, status);
      assert.equal(answer.text, text);
    });
  }
  const answer = parseResponse(
    bytes("HTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\n__proto__: x\r\n\r\n"),
  );
  assert.deepEqual(answer.headers, { "x-a": "1, 2" });
  assert.equal(answer.statusText, "OK");
  for (
    const bad of [
      "HTTP/1.1 200 OK\r\n",
      "SSH-2.0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort",
    ]
  ) {
    assert.throws(() => parseResponse(bytes(bad)), TypeError, JSON.stringify(bad));
  }
});

Deno.test("http1Request() sends method, path, query, headers and body to a real server", async () => {
  const seen: Array<{ method: string; url: string; headers: Headers; body: string }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body: await req.text() });
    return Response.json({ ok: "é" }, { status: 201, headers: { "x-policy": "y" } });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const answer = await http1Request(new URL(`${base}/api/v1/evaluate/batch?a=1&b=%20`), {
      method: "POST",
      headers: { "content-type": "application/json", "x-policy-project": "shop" },
      body: JSON.stringify({ packages: [{ package: "réquests" }] }),
    });
    assert.equal(answer.status, 201);
    assert.deepEqual(JSON.parse(answer.text), { ok: "é" });
    assert.equal(answer.headers["x-policy"], "y");
    assert.equal(seen[0].method, "POST");
    assert.equal(seen[0].url, `${base}/api/v1/evaluate/batch?a=1&b=%20`);
    assert.equal(seen[0].headers.get("x-policy-project"), "shop");
    assert.deepEqual(JSON.parse(seen[0].body), { packages: [{ package: "réquests" }] });
    const get = await http1Request(new URL(`${base}/x`), { method: "GET", headers: {} });
    assert.equal(get.status, 201);
    assert.equal(seen[1].body, "");
  } finally {
    await server.shutdown();
  }
});

Deno.test("http1Request() rejects on a refused connection and with the signal's reason on a time-out", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await assert.rejects(
    () => http1Request(new URL(`http://127.0.0.1:${port}/`), { method: "GET", headers: {} }),
    (e: unknown) => e instanceof Deno.errors.ConnectionRefused,
  );
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) accepted.push(conn);
  })();
  try {
    const url = new URL(`http://127.0.0.1:${(silent.addr as Deno.NetAddr).port}/`);
    await assert.rejects(
      () => http1Request(url, { method: "GET", headers: {}, signal: AbortSignal.timeout(50) }),
      (e: unknown) => (e as Error).name === "TimeoutError",
    );
  } finally {
    silent.close();
    for (const conn of accepted) conn.close();
  }
});

Deno.test("the default transport speaks HTTP/1.1 itself to an http: server, and uses fetch under a proxy variable", async () => {
  const agents: Array<string | null> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    agents.push(req.headers.get("user-agent"));
    return new Response("ok");
  });
  try {
    const url = new URL(`http://127.0.0.1:${server.addr.port}/`);
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    assert.equal((await defaultTransport(env({}))(url, { method: "GET", headers: {} })).text, "ok");
    // fetch sends a Deno user agent; NO_PROXY keeps it off the (absent) proxy.
    const proxied = env({ HTTP_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1" });
    assert.equal((await defaultTransport(proxied)(url, { method: "GET", headers: {} })).text, "ok");
    assert.equal(agents[0], null);
    assert.match(agents[1] ?? "", /Deno/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("the sent hook runs once the request is written, before the answer exists", async (t) => {
  // The server answers only after the client's hook has run: a hook called only with the answer
  // (or never) leaves the request unanswered, and its time-out fails the test instead.
  let hookRan!: () => void;
  let hooked!: Promise<void>;
  const bodies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(await req.text());
    await hooked;
    return Response.json({ ok: true });
  });
  try {
    const url = new URL(`http://127.0.0.1:${server.addr.port}/x`);
    for (const [name, send] of [["http1", http1Request], ["fetch", fetchTransport()]] as const) {
      await t.step(name, async () => {
        let calls = 0;
        hooked = new Promise<void>((resolve) => hookRan = resolve);
        const answer = await send(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"a":1}',
          signal: AbortSignal.timeout(10_000),
          sent: () => {
            calls++;
            hookRan();
          },
        });
        assert.equal(answer.status, 200);
        assert.equal(calls, 1);
        assert.equal(bodies.at(-1), '{"a":1}');
      });
    }
  } finally {
    await server.shutdown();
  }
});
