import { equal, ok } from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { writeFileAtomic } from "../../src/registry/files.ts";

// Two registries that disagree on every package: in version "odd" the
// packages are banned, in "even" they are preferred. A torn read would show
// a verdict that does not match the registry_version it reports.
function registryYaml(version: "odd" | "even"): string {
  const status = version === "odd" ? "banned" : "preferred";
  const rules = Array.from({ length: 50 }, (_, i) => `  - {name: pkg-${i}, status: ${status}}`)
    .join("\n");
  return `version: ${version}\npackages:\n${rules}\n`;
}

Deno.test("a registry rewritten while evaluations run never yields a 5xx or a torn read", async () => {
  const server = await startTestServer({ registryYaml: registryYaml("even") });
  try {
    let stop = false;
    let reloads = 0;
    const writer = (async () => {
      let flip = false;
      while (!stop) {
        flip = !flip;
        const yaml = registryYaml(flip ? "odd" : "even");
        // Alternate atomic replaces with in-place rewrites, which a reader could catch half-written.
        if (flip) await writeFileAtomic(server.registryPath, yaml);
        else await Deno.writeTextFile(server.registryPath, yaml);
        const res = await fetch(`${server.url}/api/v1/registry/reload`, { method: "POST" });
        ok(res.status < 500, `reload answered ${res.status}`);
        await res.body?.cancel();
        reloads++;
      }
    })();
    const results: Array<{ status: number; verdict: string; version: string }> = [];
    // At least 12 rounds, and as many more as it takes for the writer to reload a
    // few times: on a loaded machine the evaluations can outrun the first reloads.
    for (let round = 0; round < 12 || (reloads <= 3 && round < 400); round++) {
      const batch = await Promise.all(
        Array.from(
          { length: 25 },
          (_, i) =>
            fetch(`${server.url}/api/v1/evaluate?package=pkg-${(round * 25 + i) % 50}`).then(
              async (r) => {
                const body = await r.json();
                return { status: r.status, verdict: body.verdict, version: body.registry_version };
              },
            ),
        ),
      );
      results.push(...batch);
    }
    stop = true;
    await writer;
    ok(reloads > 3, `expected several reloads, got ${reloads}`);
    equal(results.filter((r) => r.status >= 500).length, 0);
    for (const r of results) {
      equal(r.status, 200);
      equal(
        r.verdict,
        r.version === "odd" ? "DENIED" : "ALLOWED",
        `torn read: ${JSON.stringify(r)}`,
      );
    }
    const versions = new Set(results.map((r) => r.version));
    ok(versions.size >= 1);
  } finally {
    await server.close();
  }
});
