import { equal } from "node:assert/strict";
import { cacheKind, createCache } from "./factory.ts";
import { optionsFromEnv } from "../config/area.ts";
import { cacheArea } from "./settings.ts";
import { silentLogger } from "../log/logger.ts";

Deno.test("createCache() picks the backend from REDIS_URL", async (t) => {
  const table: Array<[Record<string, string>, "memory" | "none" | "redis"]> = [
    [{}, "memory"],
    [{ REDIS_URL: "" }, "memory"],
    [{ REDIS_URL: "none" }, "none"],
    [{ REDIS_URL: "redis://127.0.0.1:6379" }, "redis"],
  ];
  for (const [env, kind] of table) {
    await t.step(JSON.stringify(env), () => equal(cacheKind(optionsFromEnv(cacheArea, env)), kind));
  }
  const memory = createCache(optionsFromEnv(cacheArea, {}), silentLogger);
  equal(memory.health(), "ok");
  await memory.close();
  const none = createCache(optionsFromEnv(cacheArea, { REDIS_URL: "none" }), silentLogger);
  equal(none.health(), "disabled");
  await none.close();
});
