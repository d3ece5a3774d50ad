import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { indexResolution, installIndexConfig, policyIndexUrl } from "./install/index_config.ts";
import { deadServerUrl, INIT_INDEX_ONLY, policy, writePolicyToml } from "./_testing.ts";

const FLASK = new URL("../../tests/fixtures/pyproject/flask.toml", import.meta.url);
const noEnv = () => undefined;

Deno.test("installIndexConfig() points uv, Poetry, PDM and pip at the policy index, once", async () => {
  const root = await Deno.makeTempDir();
  try {
    const original = await Deno.readTextFile(FLASK);
    await Deno.writeTextFile(join(root, "pyproject.toml"), original);
    await Deno.mkdir(join(root, ".venv"));
    const url = policyIndexUrl("http://127.0.0.1:8000/", "web app");
    assert.equal(url, "http://127.0.0.1:8000/p/web%20app/simple/");
    assert.deepEqual(indexResolution(root, "http://127.0.0.1:8000", noEnv).through, []);

    const first = installIndexConfig(root, url);
    assert.deepEqual(first.map((s) => [s.what, s.written]), [
      ["uv index", true],
      ["Poetry source", true],
      ["PDM source", true],
      ["pip configuration", true],
    ]);
    const text = await Deno.readTextFile(join(root, "pyproject.toml"));
    assert.ok(text.startsWith(original), "the existing text is kept as it was");
    // deno-lint-ignore no-explicit-any
    const doc = JSON.parse(JSON.stringify(parseToml(text))) as any;
    assert.deepEqual(doc.tool.uv.index, [{ name: "policyd", url, default: true }]);
    assert.deepEqual(doc.tool.poetry.source, [{ name: "policyd", url, priority: "primary" }]);
    assert.deepEqual(doc.tool.pdm.source, [{ name: "pypi", url, verify_ssl: true }]);
    assert.equal(
      await Deno.readTextFile(join(root, ".venv", "pip.conf")),
      `[global]\nindex-url = ${url}\n`,
    );

    const second = installIndexConfig(root, url);
    assert.ok(second.every((s) => !s.written), "a second run writes nothing");
    assert.deepEqual(indexResolution(root, "http://127.0.0.1:8000", noEnv), {
      through: ["uv", "Poetry", "PDM", "pip"],
      elsewhere: [],
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("installIndexConfig() leaves another default index alone and says so", async () => {
  const root = await Deno.makeTempDir();
  try {
    const other =
      '[[tool.uv.index]]\nname = "corp"\nurl = "https://corp/simple/"\ndefault = true\n';
    await Deno.writeTextFile(join(root, "pyproject.toml"), `[project]\nname = "x"\n\n${other}`);
    const steps = installIndexConfig(root, "http://127.0.0.1:8000/p/x/simple/");
    assert.equal(steps[0].written, false);
    assert.match(steps[0].note!, /another uv index is the default/);
    assert.equal(steps.at(-1)!.note, "no .venv in the project");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("policy init --index writes the configuration; policy status says who resolves through policyd", async () => {
  const root = await Deno.makeTempDir();
  try {
    const server = deadServerUrl();
    await writePolicyToml(root, server);
    await Deno.writeTextFile(join(root, "pyproject.toml"), '[project]\nname = "demo"\n');
    await Deno.mkdir(join(root, ".venv"));
    const before = await policy(["status", "--json"], { cwd: root });
    const sectionOf = (out: string) =>
      JSON.parse(out).sections.find((s: { name: string }) => s.name === "index");
    assert.equal(sectionOf(before.stdout).flag, "warn");
    const init = await policy(INIT_INDEX_ONLY, { cwd: root });
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, new RegExp(`export {4}PIP_INDEX_URL=${server}/p/demo/simple/\n`));
    assert.match(init.stdout, /wrote {4} uv index: /);
    const after = sectionOf((await policy(["status", "--json"], { cwd: root })).stdout);
    assert.deepEqual(after, {
      name: "index",
      flag: "ok",
      detail: "through policyd: uv, Poetry, PDM, pip",
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
