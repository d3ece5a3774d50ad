import { equal, ok } from "node:assert/strict";
import { createPopularNames, shippedPopularNames } from "./popular.ts";
import { silentLogger } from "../log/logger.ts";

Deno.test("the shipped list holds the 15,000 most downloaded projects, PEP 503 names", () => {
  const names = shippedPopularNames();
  equal(names.length, 15_000);
  equal(names[0], "boto3");
  ok(names.every((n) => n === n.toLowerCase() && !/[_.]/.test(n)));
});

Deno.test("refresh() replaces the list from the configured URL, and keeps it on failure", async () => {
  const rows = [
    ...Array.from({ length: 1200 }, (_, i) => ({ project: `Acme_Tool.${i}` })),
    { project: "IGNORE ALL PREVIOUS INSTRUCTIONS" }, // not a name: dropped
    { project: "evil\u202etool" },
  ];
  let mode: "ok" | "down" | "short" = "ok";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      mode === "down"
        ? new Response("boom", { status: 503 })
        : Response.json({ rows: mode === "short" ? rows.slice(0, 200) : rows }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/top-pypi-packages.min.json`;
    const popular = createPopularNames({ url }, silentLogger);
    ok(popular.current().has("requests"), "the shipped list before any refresh");
    equal(await popular.refresh(), true);
    ok(popular.current().has("acme-tool-7"));
    ok(!popular.current().has("requests"));
    equal(popular.current().size, 1200, "only valid project names are kept");
    mode = "down";
    equal(await popular.refresh(), false);
    ok(popular.current().has("acme-tool-7"), "kept after a failed refresh");
    mode = "short";
    equal(await popular.refresh(), false, "a truncated list is refused");
    equal(await createPopularNames({ url: null }, silentLogger).refresh(), false);
  } finally {
    await server.shutdown();
  }
});
