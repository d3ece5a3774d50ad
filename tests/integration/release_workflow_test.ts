/**
 * The release workflow (`.github/workflows/release.yml`) cannot run here (no
 * GitHub, and `deno compile` cannot download its runtime), so this pins what
 * can be checked: the YAML parses, it runs on `v*` tags, it compiles both
 * programs for the five platforms with target triples the running
 * `deno compile` accepts, it publishes SHA-256 sums, and every repository file
 * it names exists.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/cli.ts";
import { TARGETS } from "../../tools/compile.ts";

const WORKFLOW = `${REPO_ROOT}/.github/workflows/release.yml`;

const REQUIRED_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  steps: Step[];
  needs?: string;
  strategy?: { matrix: { target: string[] } };
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<string, Job>;
}

/** The target triples this Deno's `deno compile --target` accepts (from its own error message). */
async function supportedTargets(): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["compile", "--target", "not-a-target", "-o", "/dev/null", "x.ts"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const message = new TextDecoder().decode(out.stderr);
  const list = /possible values: ([^\n]+)/.exec(message)?.[1];
  assert.ok(list, `deno compile did not list its targets: ${message}`);
  return list.split(",").map((value) => value.trim());
}

Deno.test("the release workflow compiles both programs for five platforms on v* tags, with sums", async () => {
  const workflow = parse(await Deno.readTextFile(WORKFLOW)) as Workflow;
  assert.deepEqual(workflow.on.push.tags, ["v*"]);
  const targets = workflow.jobs.binaries.strategy?.matrix.target ?? [];
  assert.deepEqual([...targets].sort(), [...REQUIRED_TARGETS].sort());
  const supported = await supportedTargets();
  for (const target of targets) {
    assert.ok(supported.includes(target), `${target} is not a deno compile target`);
  }

  const runs = workflow.jobs.binaries.steps.map((step) => step.run ?? "").join("\n");
  assert.match(runs, /deno run -A tools\/compile\.ts .*--target \$\{\{ matrix\.target \}\}/);
  for (const program of ["policyd", "policy"]) {
    assert.ok(TARGETS.some((t) => t.name === program), `tools/compile.ts builds ${program}`);
    assert.match(runs, new RegExp(`\\bfor program in policyd policy\\b`));
  }
  const release = workflow.jobs.release;
  assert.equal(release.needs, "binaries");
  const publish = release.steps.map((step) => step.run ?? "").join("\n");
  assert.match(publish, /sha256sum policyd-\* policy-\* > SHA256SUMS/);
  assert.match(publish, /gh release create .*\n?.*release\/SHA256SUMS/);
});

Deno.test("every repository file the release workflow and the compile script name exists", async () => {
  const text = await Deno.readTextFile(WORKFLOW);
  const named = [...text.matchAll(/\b((?:tools|cli|src)\/[\w./-]+\.ts)\b/g)].map((m) => m[1]);
  assert.ok(named.includes("tools/compile.ts"), "the workflow builds with tools/compile.ts");
  for (const target of TARGETS) named.push(target.entry, ...target.assets);
  for (const path of named) assert.ok(existsSync(`${REPO_ROOT}/${path}`), `${path} is missing`);
});
