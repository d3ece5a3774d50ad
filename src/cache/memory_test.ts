import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { createMemoryCache } from "./memory.ts";

Deno.test("memory cache returns what was set, as a read-only JSON copy", async () => {
  const cache = createMemoryCache();
  const value = { a: [1, 2], when: new Date(0), gone: undefined };
  await cache.set("k", value, 60);
  value.a.push(3);
  const got = await cache.get<{ a: number[] }>("k");
  deepStrictEqual(got, { a: [1, 2], when: "1970-01-01T00:00:00.000Z" });
  throws(() => got!.a.push(4), TypeError);
  deepStrictEqual(await cache.get("k"), { a: [1, 2], when: "1970-01-01T00:00:00.000Z" });
  equal(cache.health(), "ok");
});

Deno.test("memory cache entries expire after their TTL", async () => {
  let now = 1_000_000;
  const cache = createMemoryCache({ now: () => now });
  await cache.set("k", "v", 10);
  now += 9_999;
  equal(await cache.get("k"), "v");
  now += 1;
  equal(await cache.get("k"), undefined);
});

Deno.test("memory cache evicts the least recently used entry", async () => {
  const cache = createMemoryCache({ maxEntries: 2 });
  await cache.set("a", 1, 60);
  await cache.set("b", 2, 60);
  await cache.get("a"); // a is now more recent than b
  await cache.set("c", 3, 60);
  equal(await cache.get("b"), undefined);
  equal(await cache.get("a"), 1);
  equal(await cache.get("c"), 3);
});

Deno.test("memory cache stores nothing with a TTL of 0", async () => {
  const cache = createMemoryCache();
  await cache.set("k", "v", 0);
  equal(await cache.get("k"), undefined);
});
