/**
 * Audit benchmark: `policy audit` of a 500-package uv.lock against a real
 * policyd on loopback, next to the same 500 packages evaluated one request
 * at a time. Prints HTTP requests (from the server's access log) and wall
 * time for: the audit end to end (a `policy` subprocess), the audit pipeline
 * in-process (parse + batch), and 500 single `GET /evaluate` calls.
 *
 *   deno run -A tests/bench/audit.ts [--packages N]
 *
 * @module
 */

import { join, relative } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { policy, writePolicyToml } from "../../cli/policy/_testing.ts";
import { ApiClient } from "../../cli/policy/api_client.ts";
import { loadLockFile } from "../../cli/policy/lockfiles/mod.ts";
import { distinctQueries } from "../../cli/policy/audit/report.ts";

const countFlag = Deno.args.indexOf("--packages");
const PACKAGES = countFlag >= 0 ? Number(Deno.args[countFlag + 1]) : 500;

/** A uv.lock (version 1) with the project and `count` registry packages. */
function uvLock(count: number): string {
  const blocks = [
    `version = 1\nrequires-python = ">=3.12"\n`,
    `[[package]]\nname = "bench"\nversion = "0.1.0"\nsource = { virtual = "." }\n` +
    `dependencies = [{ name = "bench-package-0" }]\n`,
  ];
  for (let i = 0; i < count; i++) {
    blocks.push(
      `[[package]]\nname = "bench-package-${i}"\nversion = "1.${i % 7}.${i}"\n` +
        `source = { registry = "https://pypi.org/simple" }\n` +
        `sdist = { url = "https://files.example/bench_package_${i}-1.${
          i % 7
        }.${i}.tar.gz", hash = "sha256:${i.toString(16).padStart(64, "0")}", size = ${
          1000 + i
        } }\n`,
    );
  }
  return blocks.join("\n");
}

const logLines: string[] = [];
const server = await startTestServer({ logLines });
const dir = await Deno.makeTempDir({ prefix: "policy-bench-audit-" });

async function measure(fn: () => Promise<void>): Promise<{ ms: number; requests: number }> {
  const before = logLines.length;
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  const lines = logLines.slice(before).filter((l) => l.includes("/api/v1/evaluate"));
  return { ms, requests: lines.length };
}

try {
  await writePolicyToml(dir, server.url);
  const lockPath = join(dir, "uv.lock");
  await Deno.writeTextFile(lockPath, uvLock(PACKAGES));
  const client = new ApiClient({
    serverUrl: server.url,
    project: "bench",
    failOpen: false,
    source: "audit",
  });
  const ctx = {
    read: (p: string) => Deno.readTextFileSync(p),
    label: (p: string) => relative(dir, p),
    root: dir,
  };
  const queries = distinctQueries(loadLockFile(lockPath, ctx).entries);
  if (queries.length !== PACKAGES) throw new Error(`parsed ${queries.length} packages`);

  await policy(["audit", "uv.lock", "--format", "json"], { cwd: dir }); // warm the module cache
  const e2e = await measure(async () => {
    const ran = await policy(["audit", "uv.lock", "--format", "json"], { cwd: dir });
    if (![0, 1].includes(ran.code)) throw new Error(ran.stderr);
    const rows = JSON.parse(ran.stdout).results.length;
    if (rows !== PACKAGES) throw new Error(`audit reported ${rows} rows`);
  });
  const pipeline = await measure(async () => {
    const entries = loadLockFile(lockPath, ctx).entries;
    const results = await client.evaluateBatch(distinctQueries(entries));
    if (results.length !== PACKAGES) throw new Error(`batch answered ${results.length}`);
  });
  const singles = await measure(async () => {
    for (const q of queries) await client.evaluate(q.package, q.version);
  });

  const row = (name: string, m: { ms: number; requests: number }) =>
    `${name.padEnd(44)} ${String(m.requests).padStart(5)} requests ${
      m.ms.toFixed(0).padStart(7)
    } ms  ${(singles.ms / m.ms).toFixed(1).padStart(6)}× faster than singles`;
  console.log(
    `policy audit bench (${PACKAGES}-package uv.lock, ${Deno.build.os}/${Deno.build.arch}, deno ${Deno.version.deno})`,
  );
  console.log(row("policy audit uv.lock (subprocess, end to end)", e2e));
  console.log(row("audit pipeline in-process (parse + batch)", pipeline));
  console.log(row(`${PACKAGES} single GET /evaluate (in-process)`, singles));
} finally {
  await server.close();
  await Deno.remove(dir, { recursive: true });
}
