/**
 * The composite GitHub Action in `action.yml`: it parses, names only things
 * that exist (inputs, step outputs, the `install` task, `policy audit`
 * options, the actions it uses), and its shell steps really work: run with
 * bash against a real policyd on loopback, they write a temporary
 * `.policy.toml`, produce schema-valid SARIF and fail the job on a denial.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { exec, policy, POLICY_CMD, REPO_ROOT, tempGitRepo } from "../../cli/policy/_testing.ts";
import { startTestServer } from "../helpers/server.ts";
import { sarifValidator } from "../helpers/sarif.ts";

interface Step {
  name: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  "working-directory"?: string;
}

interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(Deno.readTextFileSync(join(REPO_ROOT, "action.yml"))) as Action;
const EXPRESSION = /\$\{\{\s*(.*?)\s*\}\}/g;

Deno.test("action.yml is a composite action whose expressions name declared inputs and step outputs", () => {
  assert.equal(action.runs.using, "composite");
  assert.ok(action.name && action.description);
  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  const text = Deno.readTextFileSync(join(REPO_ROOT, "action.yml"));
  for (const [, expr] of text.matchAll(EXPRESSION)) {
    for (const [, input] of expr.matchAll(/\binputs\.([\w-]+)/g)) {
      assert.ok(input in action.inputs, `undeclared input ${input}`);
    }
    for (const [, step, output] of expr.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
      assert.ok(ids.has(step), `unknown step ${step}`);
      const producer = action.runs.steps.find((s) => s.id === step)!;
      assert.match(producer.run ?? "", new RegExp(`echo "${output}=`), `${step} sets ${output}`);
    }
  }
  for (const step of action.runs.steps) {
    if (step.run) assert.equal(step.shell, "bash", `${step.name} names its shell`);
    assert.ok(!/\$\{\{/.test(step.run ?? ""), `${step.name}: inputs reach scripts through env`);
  }
  assert.deepEqual(action.runs.steps.filter((s) => s.uses).map((s) => s.uses), [
    "denoland/setup-deno@v2",
    "github/codeql-action/upload-sarif@v3",
  ]);
  const upload = action.runs.steps.find((s) => s.uses?.startsWith("github/codeql-action"))!;
  assert.deepEqual(Object.keys(upload.with!).sort(), ["category", "sarif_file"]);
});

Deno.test("action.yml installs with the repository's install task and calls options policy audit has", async () => {
  const deno = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "deno.json")));
  const install = action.runs.steps.find((s) => s.name === "Install policy")!;
  const task = /deno task --config "\$GITHUB_ACTION_PATH\/deno\.json" (\S+)/.exec(install.run!)!;
  assert.ok(task[1] in deno.tasks, `deno task ${task[1]} exists`);
  const help = await policy(["audit", "--help"], { cwd: REPO_ROOT });
  assert.equal(help.code, 0);
  const audit = action.runs.steps.find((s) => s.id === "audit")!;
  for (const [flag] of audit.run!.matchAll(/--[a-z][a-z-]+/g)) {
    assert.ok(help.stdout.includes(flag), `policy audit accepts ${flag}`);
  }
  assert.match(audit.run!, /\bpolicy "\$\{args\[@\]\}"/);
  assert.match(audit.run!, /args=\(audit --format sarif /);
});

/** Evaluates the few expression forms the action uses; anything else fails the test. */
function evaluate(
  value: string,
  inputs: Record<string, string>,
  outputs: Record<string, Record<string, string>>,
  runnerTemp: string,
): string {
  return value.replace(EXPRESSION, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) return inputs[m[1]];
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return outputs[m[1]]?.[m[2]] ?? "";
    if (expr === "runner.temp") return runnerTemp;
    throw new Error(`expression not understood by the test: ${expr}`);
  });
}

async function runStep(
  step: Step,
  ctx: {
    workspace: string;
    inputs: Record<string, string>;
    outputs: Record<string, Record<string, string>>;
    runnerTemp: string;
    binDir: string;
  },
): Promise<number> {
  const outputFile = join(ctx.runnerTemp, `output-${step.id ?? "x"}`);
  await Deno.writeTextFile(outputFile, "");
  const env: Record<string, string> = {
    GITHUB_OUTPUT: outputFile,
    PATH: `${ctx.binDir}:${Deno.env.get("PATH")}`,
  };
  for (const [key, value] of Object.entries(step.env ?? {})) {
    env[key] = evaluate(value, ctx.inputs, ctx.outputs, ctx.runnerTemp);
  }
  const wd = step["working-directory"]
    ? join(
      ctx.workspace,
      evaluate(step["working-directory"], ctx.inputs, ctx.outputs, ctx.runnerTemp),
    )
    : ctx.workspace;
  const ran = await exec("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run!], {
    cwd: wd,
    env,
  });
  if (step.id) {
    ctx.outputs[step.id] = Object.fromEntries(
      (await Deno.readTextFile(outputFile)).split("\n").filter(Boolean).map((l) => {
        const at = l.indexOf("=");
        return [l.slice(0, at), l.slice(at + 1)];
      }),
    );
  }
  return ran.code;
}

Deno.test("the action's shell steps audit a real project: temporary config, valid SARIF, exit 2 on pycrypto", async () => {
  const server = await startTestServer();
  const workspace = await tempGitRepo();
  const runnerTemp = await Deno.makeTempDir({ prefix: "policy-action-" });
  const binDir = join(runnerTemp, "bin");
  try {
    await Deno.mkdir(binDir);
    await Deno.writeTextFile(
      join(binDir, "policy"),
      `#!/bin/sh\nexec ${POLICY_CMD.map((a) => `'${a}'`).join(" ")} "$@"\n`,
    );
    await Deno.chmod(join(binDir, "policy"), 0o755);
    await Deno.mkdir(join(workspace, "app"));
    await Deno.writeTextFile(
      join(workspace, "app", "requirements.txt"),
      "requests==2.31.0\npycrypto==2.6.1\n",
    );
    const inputs = Object.fromEntries(
      Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ""]),
    );
    Object.assign(inputs, {
      "server-url": server.url,
      project: "demo",
      "working-directory": "app",
    });
    const outputs: Record<string, Record<string, string>> = {};
    const ctx = { workspace, inputs, outputs, runnerTemp, binDir };
    const step = (name: string) => action.runs.steps.find((s) => s.name === name)!;

    assert.equal(await runStep(step("Configure policy"), ctx), 0);
    const written = outputs.config.written;
    assert.equal(written, join(workspace, "app", ".policy.toml"));
    assert.match(await Deno.readTextFile(written), /^server_url = "http:\/\/127\.0\.0\.1:\d+"$/m);

    assert.equal(await runStep(step("Audit dependencies"), ctx), 0);
    assert.equal(outputs.audit["exit-code"], "2");
    const sarif = JSON.parse(await Deno.readTextFile(outputs.audit["sarif-file"]));
    assert.deepEqual(sarifValidator()(sarif), []);
    assert.deepEqual(
      sarif.runs[0].results.map((
        r: {
          ruleId: string;
          locations: Array<
            {
              physicalLocation: {
                artifactLocation: { uri: string };
                region: { startLine: number };
              };
            }
          >;
        },
      ) => [
        r.ruleId,
        r.locations[0].physicalLocation.artifactLocation.uri,
        r.locations[0].physicalLocation.region.startLine,
      ]),
      [["DENIAL_BANNED", "app/requirements.txt", 2]],
    );

    assert.equal(await runStep(step("Remove the temporary .policy.toml"), ctx), 0);
    await assert.rejects(Deno.stat(written));
    assert.equal(await runStep(step("Fail on the policy verdict"), ctx), 2);

    await Deno.writeTextFile(join(workspace, "app", "requirements.txt"), "requests==2.31.0\n");
    assert.equal(await runStep(step("Configure policy"), ctx), 0);
    assert.equal(await runStep(step("Audit dependencies"), ctx), 0);
    assert.equal(outputs.audit["exit-code"], "0");
    assert.equal(await runStep(step("Fail on the policy verdict"), ctx), 0);
  } finally {
    await server.close();
    await Deno.remove(workspace, { recursive: true });
    await Deno.remove(runnerTemp, { recursive: true });
  }
});

Deno.test("the configure step refuses to run without a server URL or .policy.toml", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "policy-action-" });
  try {
    const step = action.runs.steps.find((s) => s.name === "Configure policy")!;
    const ctx = {
      workspace,
      inputs: { "server-url": "", "api-key": "", project: "x", "working-directory": "." },
      outputs: {},
      runnerTemp: workspace,
      binDir: workspace,
    };
    assert.equal(await runStep(step, ctx), 1);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
