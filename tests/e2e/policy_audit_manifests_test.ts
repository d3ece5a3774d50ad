/**
 * End-to-end: `policy audit FILE --format json` as a subprocess against a
 * real policyd on loopback, for every peer-style manifest in
 * tests/fixtures/manifests (requirements files with comments, hashes,
 * markers, includes, options, URLs, editable and odd lines; setup.py,
 * setup.cfg, Pipfile, tox.ini, environment.yml, a PEP 723 script, every
 * pyproject group, pdm.lock). Each run must give the package of every
 * readable line, and a warning naming file and line for every other one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { policy, writePolicyToml } from "../../cli/policy/_testing.ts";

const MANIFESTS = new URL("../fixtures/manifests/", import.meta.url);

async function copyTree(from: URL, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(new URL(`${e.name}/`, from), join(to, e.name));
    else await Deno.copyFile(new URL(e.name, from), join(to, e.name));
  }
}

/** file → [`name@line` of every audited row, warnings (file line N), 2 when denied else 1]. */
const CASES: Record<string, [string[], string[], number]> = {
  "requirements/comments.txt": [["flask@4", "requests@5", "six@7"], [], 1],
  "requirements/hashes.txt": [["certifi@1", "idna@5", "urllib3@6"], [], 1],
  "requirements/env-markers.txt": [
    ["pywin32@1", "colorama@2", "importlib-metadata@3", "typing-extensions@4"],
    [],
    1,
  ],
  "requirements/with-includes.txt": [
    ["markupsafe@1", "itsdangerous@2", "blinker@1", "click@1", "jinja2@5"],
    [],
    1,
  ],
  "requirements/options.txt": [["attrs@12", "lxml@13"], [], 1],
  "requirements/urls.txt": [
    ["pluggy@1", "iniconfig@2", "click@3", "packaging@4", "pytest@5"],
    [],
    1,
  ],
  "requirements/editable.txt": [["black@2", "pip@3", "localpkg@4", "tomli@5"], [], 1],
  "requirements/odd-lines.txt": [
    ["flask@2", "bar@3", "requests@9", "pycrypto@10", "zope-interface@12"],
    ["line 5", "line 6", "line 7", "line 8", "line 11"],
    2,
  ],
  "requirements/env-vars.txt": [["flask@1", "httpx@3"], [], 1],
  "setup.py": [
    [
      "requests@10",
      "pycrypto@11",
      "pyyaml@12",
      "setuptools-scm@15",
      "pytest@17",
      "black@17",
      "sphinx@18",
    ],
    ["line 20"],
    2,
  ],
  "setup.cfg": [
    [
      "requests@9",
      "nose@11",
      "importlib-metadata@12",
      "setuptools-scm@13",
      "pytest@17",
      "pytest-cov@18",
      "pycrypto@19",
    ],
    [],
    2,
  ],
  "Pipfile": [
    ["requests@7", "django@8", "zope-interface@9", "records@10", "pytest@13", "pycrypto@14"],
    [],
    2,
  ],
  "tox.ini": [["pytest@6", "tomli@8", "coverage@9", "ruff@14", "pycrypto@16"], ["line 15"], 2],
  "environment.yml": [["requests@11", "pycrypto@12", "flask@13"], [], 2],
  "script.py": [["requests@5", "rich@6", "pycrypto@7"], [], 2],
  // Audited alone, a pyproject.toml gives its runtime dependencies (SPEC §11); the hook and
  // pre-commit gate every group (policy_manifest_kinds_test.ts).
  "pyproject.toml": [["requests@8"], [], 1],
  "pdm.lock": [["certifi@11", "pycrypto@21", "requests@30", "mylib@43"], [], 2],
};

Deno.test("policy audit reads every readable line of every peer-style manifest and names the others", async (t) => {
  const server = await startTestServer();
  const dir = await Deno.makeTempDir({ prefix: "policy-manifests-" });
  try {
    await copyTree(MANIFESTS, dir);
    await writePolicyToml(dir, server.url);
    const env = { POLICY_TEST_PACKAGE: "flask", POLICY_TEST_VERSION: "3.0.0" };
    for (const [file, [rows, warnings, code]] of Object.entries(CASES)) {
      await t.step(file, async () => {
        const ran = await policy(["audit", file, "--format", "json"], { cwd: dir, env });
        // 2: something denied (pycrypto, banned); else 0 or 1 (provisional packages).
        assert.equal(ran.code === 2 ? 2 : 1, code, ran.stderr);
        assert.ok(ran.code <= 2, ran.stderr);
        const report = JSON.parse(ran.stdout);
        assert.deepEqual(
          report.results.map((r: { package: string; line: number }) => `${r.package}@${r.line}`),
          rows,
        );
        const lines = ran.stderr.split("\n").filter((l) => l.startsWith("policy: warning: "));
        assert.deepEqual(
          lines.map((l) => /^policy: warning: (\S+) (line \d+):/.exec(l)?.slice(1)),
          warnings.map((w) => [file, w]),
          ran.stderr,
        );
        if (rows.some((r) => r.startsWith("pycrypto@"))) {
          const row = report.results.find((r: { package: string }) => r.package === "pycrypto");
          assert.equal(row.verdict, "DENIED");
        }
      });
    }
    await t.step("setup.py is never read as a requirements file", async () => {
      const ran = await policy(["audit", "setup.py", "--format", "json"], { cwd: dir });
      assert.equal(JSON.parse(ran.stdout).files[0].format, "setup.py");
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
