import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, runDenoScript, spawnUntil } from "../helpers/cli.ts";
import { queryDb } from "../helpers/db.ts";

Deno.test("policyd quickstart creates its files, serves decisions and shuts down on SIGTERM", async () => {
  const cwd = await Deno.makeTempDir();
  const { child, match: m } = await spawnUntil(
    "cli/policyd.ts",
    ["quickstart", "--port", "0"],
    /running at (http:\/\/127\.0\.0\.1:\d+)/,
    { cwd },
  );
  const url = m[1];
  try {
    const res = await fetch(`${url}/api/v1/evaluate?package=pycrypto`);
    const body = await res.json();
    equal(body.verdict, "DENIED");
    equal(body.denial_category, "DENIAL_BANNED");
    equal(body.replacement, "cryptography");
    const health = await (await fetch(`${url}/api/v1/health`)).json();
    equal(health.status, "ok");
    const doc = await fetch(`${url}/api/v1/workflows.md`);
    equal(doc.status, 200);
    equal(doc.headers.get("content-type"), "text/markdown; charset=utf-8");
    ok(doc.headers.get("etag"));
    equal(await doc.text(), await Deno.readTextFile(`${REPO_ROOT}/workflows.md`));
  } finally {
    child.kill("SIGTERM");
    const status = await child.status;
    equal(status.code, 0, "graceful shutdown exits 0");
  }
  const target = join(cwd, ".policyd");
  for (const name of ["registry.yaml", "registry.json", "policyd.db"]) {
    ok((await Deno.stat(join(target, name))).isFile, name);
  }
  equal(queryDb(join(target, "policyd.db"), "SELECT COUNT(*) AS n FROM audit_log")[0].n, 1);
});

Deno.test("policyd quickstart is idempotent, keeps edits, always recompiles, and --force restores", async () => {
  const cwd = await Deno.makeTempDir();
  const target = join(cwd, "qs");
  const first = await runDenoScript("cli/policyd.ts", [
    "quickstart",
    "--target",
    target,
    "--port",
    "0",
    "--no-serve",
  ], { cwd });
  equal(first.code, 0, first.stderr);
  const yamlPath = join(target, "registry.yaml");
  await Deno.writeTextFile(
    yamlPath,
    "version: edited\npackages: [{name: only-one, status: banned}]\n",
  );
  const second = await runDenoScript("cli/policyd.ts", [
    "quickstart",
    "--target",
    target,
    "--no-serve",
  ], { cwd });
  equal(second.code, 0, second.stderr);
  equal(
    await Deno.readTextFile(yamlPath),
    "version: edited\npackages: [{name: only-one, status: banned}]\n",
  );
  const compiled = JSON.parse(await Deno.readTextFile(join(target, "registry.json")));
  equal(compiled.version, "edited");
  const forced = await runDenoScript("cli/policyd.ts", [
    "quickstart",
    "--target",
    target,
    "--force",
    "--no-serve",
  ], { cwd });
  equal(forced.code, 0, forced.stderr);
  const restored = JSON.parse(await Deno.readTextFile(join(target, "registry.json")));
  equal(restored.version, "2026.11.21");
});

Deno.test("policyd registry compile writes sorted JSON or exits 1 with path-qualified errors", async () => {
  const dir = await Deno.makeTempDir();
  const src = join(dir, "r.yaml");
  const dest = join(dir, "out", "r.json");
  await Deno.writeTextFile(
    src,
    "version: x\npackages:\n  - {name: Zeta, status: approved}\n  - {name: alpha_one, status: banned}\n",
  );
  const ok1 = await runDenoScript("cli/policyd.ts", ["registry", "compile", src, dest]);
  equal(ok1.code, 0, ok1.stderr);
  const json = JSON.parse(await Deno.readTextFile(dest));
  deepStrictEqual(json.packages.map((p: { name: string }) => p.name), ["alpha-one", "zeta"]);
  ok(json.compiled_at);
  await Deno.writeTextFile(
    src,
    "packages:\n  - {name: a, status: approved}\n  - {name: b, status: wrong}\n",
  );
  const bad = await runDenoScript("cli/policyd.ts", ["registry", "compile", src, dest]);
  equal(bad.code, 1);
  match(bad.stderr, /packages\[1\]\.status/);
  ok(!bad.stderr.includes("    at "), "no stack trace");
  const missing = await runDenoScript("cli/policyd.ts", [
    "registry",
    "compile",
    join(dir, "nope.yaml"),
    dest,
  ]);
  equal(missing.code, 1);
  equal(missing.stderr.trim().split("\n").length, 1, "one-line error");
});

Deno.test("policyd usage errors exit 64 with a one-line message; bad settings name the variable", async () => {
  const unknown = await runDenoScript("cli/policyd.ts", ["frobnicate"]);
  equal(unknown.code, 64);
  const badFlag = await runDenoScript("cli/policyd.ts", ["serve", "--port", "http"]);
  equal(badFlag.code, 64);
  const badEnv = await runDenoScript("cli/policyd.ts", ["serve"], {
    env: { POLICY_PORT: "eighty" },
  });
  equal(badEnv.code, 1);
  match(badEnv.stderr, /POLICY_PORT/);
  ok(!badEnv.stderr.includes("    at "), "no stack trace");
});
