import { equal } from "node:assert/strict";
import { cacheKind, createCache } from "./factory.ts";
import { loadSettings } from "../config/settings.ts";
import { silentLogger } from "../log/logger.ts";

Deno.test("createCache() picks the backend from REDIS_URL", async (t) => {
  const table: Array<[Record<string, string>, "memory" | "none" | "redis"]> = [
    [{}, "memory"],
    [{ REDIS_URL: "" }, "memory"],
    [{ REDIS_URL: "none" }, "none"],
    [{ REDIS_URL: "redis://127.0.0.1:6379" }, "redis"],
  ];
  for (const [env, kind] of table) {
    await t.step(JSON.stringify(env), () => equal(cacheKind(loadSettings(env)), kind));
  }
  const memory = createCache(loadSettings({}), silentLogger);
  equal(memory.health(), "ok");
  await memory.close();
  const none = createCache(loadSettings({ REDIS_URL: "none" }), silentLogger);
  equal(none.health(), "disabled");
  await none.close();
});
