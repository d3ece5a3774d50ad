import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { silentLogger } from "../log/logger.ts";
import { emptySnapshot } from "./compile.ts";
import { createLiveRegistry } from "./live.ts";

async function setup(initialYaml: string) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "registry.yaml");
  await Deno.writeTextFile(path, initialYaml);
  const swaps: string[][] = [];
  const live = createLiveRegistry({
    path,
    initial: await emptySnapshot(),
    log: silentLogger,
    afterSwap: (next) => {
      swaps.push([...next.byName.keys()]);
      return Promise.resolve(next.byName.size);
    },
  });
  return { dir, path, live, swaps };
}

Deno.test("reload() swaps in a valid registry and reports the counts", async () => {
  const { path, live, swaps } = await setup(
    "version: a\npackages: [{name: x, status: approved}]\n",
  );
  const first = await live.reload();
  ok(first.ok);
  equal(first.new_version, "a");
  equal(first.package_count, 1);
  equal(first.added_packages, 1);
  equal(first.approved_requests, 1);
  await Deno.writeTextFile(
    path,
    "version: b\npackages: [{name: x, status: approved}, {name: y, status: banned}]\n",
  );
  const second = await live.reload();
  equal(second.previous_version, "a");
  equal(second.new_version, "b");
  equal(second.added_packages, 1);
  equal(live.current().registry.version, "b");
  equal(swaps.length, 2);
});

Deno.test("reload() of unchanged content is a no-op with detail 'unchanged'", async () => {
  const { live, swaps } = await setup("version: a\npackages: []\n");
  await live.reload();
  const again = await live.reload();
  ok(again.ok);
  equal(again.detail, "unchanged");
  equal(swaps.length, 1);
});

Deno.test("reload() of an invalid file keeps the old registry and returns the errors", async () => {
  const { path, live } = await setup("version: good\npackages: [{name: x, status: approved}]\n");
  await live.reload();
  const before = live.current();
  await Deno.writeTextFile(path, "packages: [{name: x, status: nonsense}]\n");
  const result = await live.reload();
  equal(result.ok, false);
  ok(result.errors?.some((e) => e.path === "packages[0].status"));
  equal(live.current(), before);
  await Deno.remove(path);
  const missing = await live.reload();
  equal(missing.ok, false);
  equal(live.current(), before);
});

Deno.test("concurrent reload() calls run one after another", async () => {
  const { live } = await setup("version: a\npackages: []\n");
  const results = await Promise.all([live.reload(), live.reload(), live.reload()]);
  equal(results.filter((r) => r.detail === "reloaded").length, 1);
  equal(results.filter((r) => r.detail === "unchanged").length, 2);
});
