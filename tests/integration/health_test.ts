import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

Deno.test("GET /health reports every part and 503 once the database is unusable", async () => {
  const server = await startTestServer();
  try {
    const res = await fetch(`${server.url}/api/v1/health`);
    equal(res.status, 200);
    const body = await res.json();
    for (
      const key of [
        "status",
        "version",
        "registry_version",
        "package_count",
        "db",
        "cache",
        "proposer",
        "scanner",
        "uptime_s",
      ]
    ) {
      ok(key in body, `missing ${key}`);
    }
    equal(body.status, "ok");
    equal(body.registry_version, "2026.11.21");
    ok(body.package_count >= 20);
    await server.running.built.store.close();
    const down = await fetch(`${server.url}/api/v1/health`);
    equal(down.status, 503);
    equal((await down.json()).db, "unavailable");
  } finally {
    await server.close();
  }
});

Deno.test("the mtime poller reloads an edited registry without a request", async () => {
  const server = await startTestServer({
    env: { REGISTRY_RELOAD_INTERVAL: "0.1" },
    background: true,
  });
  try {
    await new Promise((r) => setTimeout(r, 150));
    await Deno.writeTextFile(
      server.registryPath,
      "version: polled\npackages: [{name: left-pad, status: banned}]\n",
    );
    const deadline = Date.now() + 5000;
    let version = "";
    while (Date.now() < deadline) {
      version = (await (await fetch(`${server.url}/api/v1/registry`)).json()).version;
      if (version === "polled") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    equal(version, "polled");
    const body = await (await fetch(`${server.url}/api/v1/evaluate?package=left-pad`)).json();
    deepStrictEqual([body.verdict, body.denial_category], ["DENIED", "DENIAL_BANNED"]);
  } finally {
    await server.close();
  }
});

Deno.test("GET /openapi.json describes the API as OpenAPI 3.1", async () => {
  const server = await startTestServer();
  try {
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    equal(doc.openapi, "3.1.0");
    ok(doc.paths["/evaluate"].get.parameters.some((p: { name: string }) => p.name === "package"));
    ok(doc.paths["/evaluate/batch"].post.requestBody);
  } finally {
    await server.close();
  }
});
