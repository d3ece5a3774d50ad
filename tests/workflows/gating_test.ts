/**
 * Integration tests of test gating: the real runner (cli/workflows.ts) runs
 * real `deno test` processes over throwaway test files in a temp directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const REPO = new URL("../../", import.meta.url);
const CLI = new URL("packages/workflows/runner.ts", REPO);
const MOD = new URL("src/workflows/mod.ts", REPO).href;
const FIXTURES = new URL("./fixtures/", import.meta.url);

type Fixture = "orders" | "failing" | "flaky";

/** A temp project with a deno.json mapping the repo's npm imports and the chosen fixtures. */
async function project(...fixtures: Fixture[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "workflows-gating-" });
  const repoConfig = JSON.parse(await Deno.readTextFile(new URL("deno.json", REPO)));
  // npm packages resolve from Deno's global cache, so the temp project needs no node_modules.
  const config = { imports: repoConfig.imports, nodeModulesDir: "none", lock: false };
  await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify(config, null, 2));
  await Deno.mkdir(join(dir, "tests"));
  await Deno.copyFile(new URL("app.fixture.ts", FIXTURES), join(dir, "tests", "app.fixture.ts"));
  for (const name of fixtures) await addFixture(dir, name);
  return dir;
}

async function addFixture(dir: string, name: Fixture): Promise<void> {
  const source = await Deno.readTextFile(new URL(`${name}.fixture.ts`, FIXTURES));
  const text = source.replace('"../../../src/workflows/mod.ts"', JSON.stringify(MOD));
  assert.notEqual(text, source, "the fixture imports the library by absolute file URL");
  await Deno.writeTextFile(join(dir, "tests", `${name}_test.ts`), text);
}

interface RunResult {
  code: number;
  stderr: string;
  stdout: string;
}

async function runner(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI.href, ...args],
    cwd: dir,
    env: { CI: "", FIXTURE_FAIL: "", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

const read = (dir: string, file = "workflows.md") => Deno.readTextFile(join(dir, file));
const names = (md: string) => [...md.matchAll(/^## Workflow: (.*)$/gm)].map((m) => m[1]);

async function withProject(fixtures: Fixture[], fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await project(...fixtures);
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a failing test, a failing t.step, a test that throws after its calls and a leak leave no workflow", async () => {
  await withProject(["orders", "failing"], async (dir) => {
    const result = await runner(dir, ["run", "--write", "--", "-A"]);
    assert.equal(result.code, 1, "deno test's exit code is propagated");
    assert.match(
      result.stdout,
      /FAILED \| 4 passed[^\n|]*\| 4 failed/,
      "the normal test summary stays visible",
    );
    // Every workflow left out is named with its reason: the wrapper records
    // the three failures and the call-less one; the runner's JUnit check
    // vetoes the leak, which only fails after the body returned.
    const dropped = [
      ...result.stderr.matchAll(/not published: "(.*)" \((.*), test "(.*)"\): (.*)/g),
    ]
      .map((m) => [m[1], m[2], m[3], m[4]]);
    assert.deepEqual(dropped, [
      ["Fails an assertion", "./tests/failing_test.ts", "fails an assertion", "test failed"],
      ["Fails a step", "./tests/failing_test.ts", "fails a step", "test failed"],
      [
        "Throws after its calls",
        "./tests/failing_test.ts",
        "throws after its calls",
        "test failed",
      ],
      ["Leaks a timer", "./tests/failing_test.ts", "leaks a timer", "test failed"],
      ["Records nothing", "./tests/failing_test.ts", "records nothing", "no calls recorded"],
    ]);
    assert.match(result.stderr, /5 workflows not published \(named above\)/);
    const md = await read(dir);
    assert.deepEqual(names(md), ["Survives beside failures", "Place an order", "Check health"]);
    const json = JSON.parse(await read(dir, "workflows.json"));
    assert.deepEqual(json.workflows.map((w: { id: string }) => w.id), [
      "survives_beside_failures",
      "place_an_order",
      "check_health",
    ]);
    assert.match(md, /- `order_id` from Step 1 response → Step 3 path \(`:id`\)/);
  });
});

Deno.test("a test failing in run 1 and passing in run 2 appears only in run 2, and vanishes when it fails again", async () => {
  await withProject(["orders", "flaky"], async (dir) => {
    const first = await runner(dir, ["run", "--write", "--", "-A"], { FIXTURE_FAIL: "1" });
    assert.equal(first.code, 1);
    assert.deepEqual(names(await read(dir)), ["Place an order", "Check health"]);
    const second = await runner(dir, ["run", "--", "-A"]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(names(await read(dir)), ["Flaky checkout", "Place an order", "Check health"]);
    const third = await runner(dir, ["run", "--write", "--", "-A"], { FIXTURE_FAIL: "1" });
    assert.equal(third.code, 1);
    assert.deepEqual(
      names(await read(dir)),
      ["Place an order", "Check health"],
      "a full run rebuilds",
    );
  });
});

Deno.test("two full runs give byte-identical documents, also with --parallel and --shuffle", async () => {
  await withProject(["orders", "failing", "flaky"], async (dir) => {
    await runner(dir, ["run", "--write", "--", "-A"]);
    const md = await read(dir);
    const json = await read(dir, "workflows.json");
    const again = await runner(dir, ["run", "--write", "--", "-A", "--parallel", "--shuffle=3"]);
    assert.equal(again.code, 1);
    assert.equal(await read(dir), md);
    assert.equal(await read(dir, "workflows.json"), json);
    assert.deepEqual(names(md), [
      "Survives beside failures",
      "Flaky checkout",
      "Place an order",
      "Check health",
    ]);
  });
});

Deno.test("a failed run rewrites the document without the failing workflows, names them and exits non-zero", async () => {
  await withProject(["orders", "flaky"], async (dir) => {
    assert.equal((await runner(dir, ["run", "--", "-A"])).code, 0);
    assert.deepEqual(names(await read(dir)), ["Flaky checkout", "Place an order", "Check health"]);
    const failed = await runner(dir, ["run", "--", "-A"], { FIXTURE_FAIL: "1" });
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /not published in workflows\.md: "Flaky checkout" \(a workflow whose test fails is not published\)/,
    );
    assert.deepEqual(names(await read(dir)), ["Place an order", "Check health"]);
    const json = JSON.parse(await read(dir, "workflows.json"));
    assert.deepEqual(json.workflows.map((w: { name: string }) => w.name), [
      "Place an order",
      "Check health",
    ]);
  });
});

Deno.test("the document is generated, not required: a run with it deleted writes a new one", async () => {
  await withProject(["orders"], async (dir) => {
    await assert.rejects(read(dir), Deno.errors.NotFound);
    const run = await runner(dir, ["run", "--", "-A"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(names(await read(dir)), ["Place an order", "Check health"]);
  });
});

Deno.test("a narrowed run merges with the previous document and says so", async () => {
  await withProject(["orders", "flaky"], async (dir) => {
    assert.equal((await runner(dir, ["run", "--", "-A"])).code, 0);
    const byFile = await runner(dir, ["run", "--", "-A", "tests/orders_test.ts"], {
      FIXTURE_FAIL: "1",
    });
    assert.equal(byFile.code, 0);
    assert.match(byFile.stderr, /the run was narrowed \(tests\/orders_test\.ts\)/);
    assert.deepEqual(names(await read(dir)), ["Flaky checkout", "Place an order", "Check health"]);

    const byFilter = await runner(dir, ["run", "--", "-A", "--filter", "place"]);
    assert.equal(byFilter.code, 0);
    assert.match(byFilter.stderr, /narrowed \(--filter\)/);
    assert.deepEqual(names(await read(dir)), ["Flaky checkout", "Place an order", "Check health"]);

    const merged = await runner(
      dir,
      ["run", "--merge", "--write", "--", "-A", "--filter", "flaky"],
      {
        FIXTURE_FAIL: "1",
      },
    );
    assert.equal(merged.code, 1);
    assert.deepEqual(
      names(await read(dir)),
      ["Place an order", "Check health"],
      "a test that ran and failed is removed",
    );
  });
});

Deno.test("a type error (no JUnit report) leaves the document untouched and exits non-zero", async () => {
  await withProject(["orders"], async (dir) => {
    assert.equal((await runner(dir, ["run", "--", "-A"])).code, 0);
    const md = await read(dir);
    const json = await read(dir, "workflows.json");
    await Deno.writeTextFile(
      join(dir, "tests", "broken_test.ts"),
      'const n: number = "not a number";\nconsole.log(n);\n',
    );
    const result = await runner(dir, ["run", "--", "-A"]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /no JUnit report .*workflows\.md left untouched/);
    assert.equal(await read(dir), md);
    assert.equal(await read(dir, "workflows.json"), json);
  });
});

Deno.test("--conventions opens the document with ## Conventions; --strict refuses workflows without requires", async () => {
  await withProject(["orders"], async (dir) => {
    await Deno.writeTextFile(
      join(dir, "conventions.ts"),
      'export const conventions = { basePath: "/", headers: [{ name: "X-Shop", direction: "request", meaning: "the shop" }] };\n',
    );
    const run = await runner(dir, ["run", "--conventions", "conventions.ts", "--", "-A"]);
    assert.equal(run.code, 0, run.stderr);
    const md = await read(dir);
    assert.ok(
      md.startsWith(
        "---\nworkflows:\n  conventions: conventions.ts\n---\n\n" +
          "# API Workflows\n\n## Conventions\n\nThis document is generated",
      ),
      "the front matter remembers the conventions module",
    );
    assert.match(md, /### Headers\n\n- `X-Shop` \(request\): the shop\n/);
    assert.match(md, /\*\*Requires:\*\* an account that may order\n/);
    const json = JSON.parse(await read(dir, "workflows.json"));
    assert.equal(json.conventions.basePath, "/");

    const strict = await runner(dir, ["run", "--strict", "--", "-A"]);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /--strict\): no `requires` in "Check health"/);
    assert.equal(await read(dir), md, "the document is left untouched");
  });
});

Deno.test("check mode (and CI=true) fails on a stale document without rewriting it", async () => {
  await withProject(["orders"], async (dir) => {
    assert.equal((await runner(dir, ["run", "--", "-A"])).code, 0);
    const fresh = await read(dir);
    const ok = await runner(dir, ["check", "--", "-A"]);
    assert.equal(ok.code, 0);
    assert.match(ok.stderr, /workflows\.md is up to date \(2 workflows\)/);

    const edited = fresh.replace("Check health", "Check health (edited by hand)");
    await Deno.writeTextFile(join(dir, "workflows.md"), edited);
    const stale = await runner(dir, ["check", "--", "-A"]);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /STALE: workflows\.md differs from line \d+/);
    assert.equal(await read(dir), edited, "check never writes");

    const ci = await runner(dir, ["run", "--", "-A"], { CI: "true" });
    assert.equal(ci.code, 1);
    assert.match(ci.stderr, /CI is set: checking the document instead of writing it/);
    assert.equal(await read(dir), edited);

    const forced = await runner(dir, ["run", "--write", "--", "-A"], { CI: "true" });
    assert.equal(forced.code, 0);
    assert.equal(await read(dir), fresh);
  });
});

Deno.test("--title, --command and the redaction options are remembered in the front matter, so check agrees with run and names the user's command", async () => {
  await withProject(["orders"], async (dir) => {
    const args = ["--title", "Shop API", "--command", "deno task docs", "--redact-key", "sku"];
    const run = await runner(dir, ["run", ...args, "--", "-A"]);
    assert.equal(run.code, 0, run.stderr);
    const md = await read(dir);
    assert.ok(md.startsWith(
      "---\nworkflows:\n  title: Shop API\n  command: deno task docs\n" +
        "  redaction:\n    keys:\n      - sku\n---\n\n# Shop API\n",
    ));
    assert.match(md, /"sku": "\[REDACTED\]"/, "the project's extra key is redacted in the tests");
    assert.doesNotMatch(md, /A-1/);
    assert.match(md, /and 1 project key word|`sku`/, "the preamble states the extra key");
    const json = JSON.parse(await read(dir, "workflows.json"));
    assert.deepEqual(json.redaction, { keys: ["sku"] });

    const check = await runner(dir, ["check", "--", "-A"]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stderr, /workflows\.md is up to date/);

    await Deno.writeTextFile(join(dir, "workflows.md"), md.replace("\n# Shop API\n", "\n# Shop\n"));
    const stale = await runner(dir, ["check", "--", "-A"]);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /run `deno task docs` locally/);
    assert.doesNotMatch(stale.stderr, /deno task test/);
  });
});
