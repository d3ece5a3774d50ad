/**
 * Single executables: `deno task compile`'s arguments carry every run-time
 * asset, the task fails in one line where Deno's compile runtime cannot be
 * downloaded, and the server command line runs from nothing but its module
 * graph plus the `--include` assets (what a compiled binary contains).
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { compileArgs, TARGETS } from "../../tools/compile.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { assertIncludes } from "../helpers/policyd_cli.ts";

const decoder = new TextDecoder();

async function deno(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("compile arguments include the example registry and every existing run-time asset", () => {
  const policyd = TARGETS.find((t) => t.name === "policyd")!;
  const args = compileArgs(policyd, "dist");
  assert.equal(args[0], "compile");
  assert.equal(args.at(-1), "cli/policyd.ts");
  assert.deepEqual(args.slice(args.indexOf("--output"), args.indexOf("--output") + 2), [
    "--output",
    join("dist", "policyd"),
  ]);
  const included = args.flatMap((a, i) => (args[i - 1] === "--include" ? [a] : []));
  assert.ok(included.includes("registry/registry.yaml"));
  for (const asset of included) Deno.statSync(join(REPO_ROOT, asset));
  assert.ok(TARGETS.some((t) => t.entry === "cli/policy.ts"), "the client binary is built too");
});

Deno.test("deno task compile either builds both binaries or says in one line why it cannot", async () => {
  const out = await Deno.makeTempDir({ prefix: "policyd-dist-" });
  try {
    const result = await deno([
      "run",
      "-A",
      join(REPO_ROOT, "tools/compile.ts"),
      "--out-dir",
      out,
      "--",
      "--no-check",
    ], {
      cwd: REPO_ROOT,
    });
    if (result.code === 0) {
      for (const t of TARGETS) Deno.statSync(join(out, t.name));
    } else {
      assert.equal(result.code, 1);
      const lines = result.stderr.trim().split("\n");
      assert.equal(lines.length, 1, result.stderr);
      assertIncludes(lines[0], "could not download its runtime");
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

/** The files of `paths` (relative to the repository), directories expanded. */
async function expand(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (Deno.statSync(join(REPO_ROOT, path)).isFile) {
      files.push(path);
      continue;
    }
    for await (const entry of Deno.readDir(join(REPO_ROOT, path))) {
      files.push(...(await expand([join(path, entry.name)])));
    }
  }
  return files;
}

/** Copies the local files of the module graph of `entry`, plus `assets`, into `dest`. */
async function copyGraph(entry: string, assets: string[], dest: string): Promise<number> {
  const info = await deno([
    "info",
    "--json",
    "--config",
    join(REPO_ROOT, "deno.json"),
    join(REPO_ROOT, entry),
  ]);
  assert.equal(info.code, 0, info.stderr);
  const graph = JSON.parse(info.stdout) as {
    modules: Array<{ specifier: string; local?: string }>;
  };
  const files = graph.modules
    .filter((m) => m.specifier.startsWith("file:") && m.local)
    .map((m) => relative(REPO_ROOT, m.local!));
  for (const file of [...files, ...(await expand(assets)), "deno.json", "deno.lock"]) {
    await Deno.mkdir(join(dest, dirname(file)), { recursive: true });
    await Deno.copyFile(join(REPO_ROOT, file), join(dest, file));
  }
  // npm packages come from the registry cache, not the source tree.
  await Deno.symlink(join(REPO_ROOT, "node_modules"), join(dest, "node_modules"));
  return files.length;
}

Deno.test("policyd runs from its module graph and --include assets alone, in a read-only copy", async () => {
  const policyd = TARGETS.find((t) => t.name === "policyd")!;
  const assets = policyd.assets.filter((a) => {
    try {
      Deno.statSync(join(REPO_ROOT, a));
      return true;
    } catch {
      return false;
    }
  });
  const copy = await Deno.makeTempDir({ prefix: "policyd-graph-" });
  const work = await Deno.makeTempDir({ prefix: "policyd-graph-work-" });
  try {
    const count = await copyGraph(policyd.entry, assets, copy);
    assert.ok(count > 20);
    await new Deno.Command("chmod", { args: ["-R", "a-w", copy] }).output();
    const stack = join(work, "stack");
    // Deno's own permissions deny reads and writes outside the copy, the work
    // directory and the executable, even when the test runs as root.
    const run = (args: string[], env: Record<string, string> = {}) =>
      deno([
        "run",
        `--allow-read=${copy},${work},${Deno.execPath()}`,
        `--allow-write=${work}`,
        "--allow-env",
        "--allow-net=127.0.0.1",
        "--frozen",
        "--config",
        join(copy, "deno.json"),
        join(copy, policyd.entry),
        ...args,
      ], { cwd: work, env });

    const init = await run(["init", "--target", stack]);
    assert.equal(init.code, 0, init.stderr);
    for (
      const file of [
        "Dockerfile",
        "compose.yaml",
        ".env.example",
        "registry/registry.yaml",
        "registry/registry.json",
      ]
    ) {
      Deno.statSync(join(stack, file));
    }
    assert.equal(
      await Deno.readTextFile(join(stack, "registry/registry.yaml")),
      await Deno.readTextFile(join(REPO_ROOT, "registry/registry.yaml")),
      "the example registry comes from the included asset",
    );

    const compiled = await run([
      "registry",
      "compile",
      join(stack, "registry/registry.yaml"),
      join(work, "out.json"),
    ]);
    assert.equal(compiled.code, 0, compiled.stderr);

    const check = await run(["check-config", "--json"], {
      REGISTRY_PATH: join(stack, "registry/registry.yaml"),
      POLICY_DB_PATH: join(work, "policyd.db"),
    });
    assert.equal(check.code, 0, check.stdout + check.stderr);

    const quick = await run(["quickstart", "--target", join(work, "quick"), "--no-serve"]);
    assert.equal(quick.code, 0, quick.stderr);
    Deno.statSync(join(work, "quick", "registry.json"));
  } finally {
    await new Deno.Command("chmod", { args: ["-R", "u+w", copy] }).output();
    await Deno.remove(copy, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});
