import assert from "node:assert/strict";
import { compare, valid } from "@renovatebot/pep440";
import { isAffected, versionComparer } from "./affected.ts";
import type { AffectedVersions } from "./types.ts";

const VULNS = new URL("../../tests/fixtures/osv/vulns/", import.meta.url);

async function fixtureAffected(): Promise<AffectedVersions[][]> {
  const out: AffectedVersions[][] = [];
  for await (const entry of Deno.readDir(VULNS)) {
    const record = JSON.parse(await Deno.readTextFile(new URL(entry.name, VULNS)));
    out.push(
      // deno-lint-ignore no-explicit-any
      (record.affected ?? []).map((a: any) => ({
        versions: a.versions ?? [],
        // deno-lint-ignore no-explicit-any
        ranges: (a.ranges ?? []).filter((r: any) => r.type === "ECOSYSTEM"),
      })),
    );
  }
  return out;
}

Deno.test("versionComparer() orders like pep440's compare() over the fixtures' versions", async () => {
  const records = await fixtureAffected();
  const versions = new Set<string>("1.0.dev0 1.0a1 1.0 1.0.post1 1.0+local.7 2!0.1".split(" "));
  for (const affected of records) {
    for (const a of affected) {
      for (const v of a.versions.slice(0, 5)) versions.add(v);
      for (const r of a.ranges) {
        for (const e of r.events) {
          for (const v of Object.values(e)) if (v && v !== "0") versions.add(v);
        }
      }
    }
  }
  const list = [...versions].filter((v) => valid(v) !== null).slice(0, 400);
  const cmp = versionComparer();
  for (const a of list) {
    for (const b of list) assert.equal(cmp(a, b), Math.sign(compare(a, b)), `${a} vs ${b}`);
  }
  assert.equal(cmp("not a version", "zzz"), -1);
});

Deno.test("isAffected() decides the same with versionComparer() for every fixture record", async () => {
  const records = await fixtureAffected();
  const probes = ["0.1", "1.0", "2.0.1", "2.31.0", "3.7", "5.3.1", "6.0.1", "41.0.5", "2.6.0-NA"];
  const cmp = versionComparer();
  for (const affected of records) {
    for (const v of probes) {
      assert.equal(isAffected(affected, v, cmp), isAffected(affected, v), v);
    }
  }
});
