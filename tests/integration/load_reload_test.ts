/**
 * Load with reloads in between: concurrent single and batch evaluations over
 * real sockets while the registry is rewritten and reloaded. Every answered
 * evaluation has exactly one audit row, and nothing answers 5xx.
 *
 * @module
 */
import assert from "node:assert/strict";
import { auditCount } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";
import { writeFileAtomic } from "../../src/registry/files.ts";

function registryYaml(round: number): string {
  const status = round % 2 === 0 ? "approved" : "banned";
  const rules = Array.from({ length: 40 }, (_, i) => `  - {name: pkg-${i}, status: ${status}}`);
  return `version: round-${round}\npackages:\n${rules.join("\n")}\n`;
}

Deno.test("under load with reloads in between, audit rows equal answered evaluations", async () => {
  const server = await startTestServer({ registryYaml: registryYaml(0) });
  const api = `${server.url}/api/v1`;
  let stop = false;
  let reloads = 0;
  const failures: string[] = [];
  try {
    const reloader = (async () => {
      for (let round = 1; !stop; round++) {
        await writeFileAtomic(server.registryPath, registryYaml(round));
        const res = await fetch(`${api}/registry/reload`, { method: "POST" });
        if (res.status !== 200) failures.push(`reload → ${res.status}`);
        await res.body?.cancel();
        reloads++;
      }
    })();
    let answered = 0;
    const client = async (id: number) => {
      for (let i = 0; i < 30; i++) {
        if ((id + i) % 3 === 0) {
          const size = 1 + ((id * 7 + i) % 10);
          const packages = Array.from(
            { length: size },
            (_, k) => ({ package: `pkg-${(i + k) % 50}` }),
          );
          const res = await fetch(`${api}/evaluate/batch`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ packages }),
          });
          if (res.status !== 200) failures.push(`batch → ${res.status}`);
          else {
            const { results } = await res.json();
            answered += results.length;
          }
        } else {
          const res = await fetch(`${api}/evaluate?package=pkg-${(id + i) % 50}`);
          if (res.status !== 200) failures.push(`evaluate → ${res.status}`);
          else {
            await res.json();
            answered++;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, id) => client(id)));
    stop = true;
    await reloader;
    assert.deepEqual(failures, []);
    assert.ok(reloads >= 2, `only ${reloads} reloads happened during the load`);
    assert.ok(answered >= 360, `${answered} evaluations answered`);
    assert.equal(auditCount(server.dbPath), answered, "one audit row per answered evaluation");
  } finally {
    stop = true;
    await server.close();
  }
});
