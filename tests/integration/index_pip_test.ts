/**
 * Debian's pip, in a fresh virtual environment, installs through the policy
 * index from a loopback upstream index of real wheels built offline (issue
 * 28 point 6): an allowed package installs; a denied one fails; an allowed
 * package requiring a denied one fails as a whole; a package whose newest
 * version is denied installs the newest allowed one; `pip install -r` of a
 * file the shell wrote is stopped; `policy init --index` points the venv's pip at
 * the index; every download is an audit row with its
 * version and file name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeIndex } from "../helpers/fake_index.ts";
import { startFakeUpstream } from "../helpers/fake_upstream.ts";
import { startTestServer } from "../helpers/server.ts";
import { INIT_INDEX_ONLY, policy } from "../../cli/policy/_testing.ts";

/** Debian's Python, whose `venv` module brings Debian's pip (python3-venv, python3-pip). */
const DEBIAN_PYTHON = "/usr/bin/python3";

const REGISTRY = `
version: "index-test"
policies:
  cve_threshold: 7.0
  block_on_cve: true
  unversioned_cve_scope: latest
  licenses: { allowed: [MIT], denied: [GPL-3.0-only] }
  unknown_license_policy: provisional
packages:
  - { name: goodpkg, status: approved }
  - { name: badpkg, status: banned, reason: "test ban" }
  - { name: needsbad, status: approved }
  - { name: constrained, status: version-constrained, max_version: "1.0" }
  - { name: idna, status: approved }
  - { name: initpkg, status: approved }
`;

const WHEELS = [
  { name: "goodpkg", version: "1.0" },
  { name: "badpkg", version: "1.0" },
  { name: "needsbad", version: "1.0", requires: ["badpkg>=1.0"] },
  { name: "constrained", version: "1.0" },
  { name: "constrained", version: "2.0" },
  // idna 3.6 is affected by the real PYSEC-2024-60 of the OSV fixtures (CVSS 7.5, fixed in 3.7).
  { name: "idna", version: "3.6" },
  { name: "idna", version: "3.7" },
  { name: "initpkg", version: "1.0" },
];

/**
 * Runs a command with a clean environment: no pip configuration of this
 * machine (find-links, extra indexes, constraints) may reach the installs.
 */
async function run(cmd: string, args: string[], cwd: string, pipConfig = "/dev/null") {
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: cwd,
    PIP_CONFIG_FILE: pipConfig,
  };
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { ok: out.success, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("pip installs through the policy index only what the policy allows", async (t) => {
  const upstream = await startFakeUpstream();
  const index = await startFakeIndex(WHEELS);
  const server = await startTestServer({
    registryYaml: REGISTRY,
    env: {
      OSV_API_URL: upstream.url,
      PYPI_URL: upstream.url,
      INDEX_UPSTREAM_URL: index.simpleUrl,
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "policyd-pip-" });
  try {
    const venv = await run(DEBIAN_PYTHON, ["-m", "venv", join(dir, ".venv")], dir);
    assert.ok(venv.ok, venv.stderr);
    const indexUrl = `${server.url}/p/web/simple/`;
    const pipArgs = [
      "-m",
      "pip",
      "install",
      "--no-cache-dir",
      "--disable-pip-version-check",
      "--index-url",
      indexUrl,
    ];
    const python = join(dir, ".venv", "bin", "python");
    const pip = (...args: string[]) => run(python, [...pipArgs, ...args], dir);
    const installed = async (name: string) => {
      const show = await run(python, ["-m", "pip", "show", name], dir);
      return show.ok ? /^Version: (.+)$/m.exec(show.stdout)?.[1] ?? null : null;
    };

    await t.step("an allowed package installs", async () => {
      const r = await pip("goodpkg");
      assert.ok(r.ok, r.stderr);
      assert.equal(await installed("goodpkg"), "1.0");
    });
    await t.step("a denied package fails", async () => {
      const r = await pip("badpkg");
      assert.equal(r.ok, false);
      assert.match(r.stderr, /No matching distribution found for badpkg/);
      assert.equal(await installed("badpkg"), null);
    });
    await t.step("an allowed package requiring a denied one fails as a whole", async () => {
      const r = await pip("needsbad");
      assert.equal(r.ok, false);
      assert.match(r.stderr, /badpkg/);
      assert.equal(await installed("needsbad"), null);
      assert.equal(await installed("badpkg"), null);
    });
    await t.step("a denied newest version: the newest allowed one installs", async () => {
      const r = await pip("constrained");
      assert.ok(r.ok, r.stderr);
      assert.equal(await installed("constrained"), "1.0");
      const vulnerable = await pip("idna<3.7");
      assert.equal(vulnerable.ok, false, "3.6 is left out for PYSEC-2024-60");
      const latest = await pip("idna");
      assert.ok(latest.ok, latest.stderr);
      assert.equal(await installed("idna"), "3.7");
    });
    await t.step("pip install -r of a file the shell wrote is stopped", async () => {
      const script = `echo badpkg >> requirements.txt && "${python}" ${pipArgs.join(" ")} ` +
        "-r requirements.txt";
      const r = await run("sh", ["-c", script], dir);
      assert.equal(r.ok, false);
      assert.equal(await installed("badpkg"), null);
    });
    await t.step("a denied file is refused 403 even by direct URL", async () => {
      const res = await fetch(`${server.url}/p/web/files/badpkg/badpkg-1.0-py3-none-any.whl`);
      assert.equal(res.status, 403);
      assert.match(await res.text(), /^policyd: badpkg is banned by the registry: test ban\n$/);
    });
    await t.step("policy init --index points the project's pip at the index", async () => {
      await Deno.writeTextFile(
        join(dir, ".policy.toml"),
        'project = "web"\n' +
          `server_url = ${JSON.stringify(server.url)}\n`,
      );
      const init = await policy(INIT_INDEX_ONLY, { cwd: dir });
      assert.equal(init.code, 0, init.stderr);
      // pip reads the environment's own pip.conf; naming it also keeps this machine's user
      // configuration (extra indexes, find-links) out, as in the other steps.
      const conf = join(dir, ".venv", "pip.conf");
      const r = await run(
        python,
        ["-m", "pip", "install", "--no-cache-dir", "--disable-pip-version-check", "initpkg"],
        dir,
        conf,
      );
      assert.ok(r.ok, r.stderr);
      assert.equal(await installed("initpkg"), "1.0");
    });
    await t.step("every download is an audit row with its version and file name", async () => {
      const res = await fetch(`${server.url}/api/v1/audit?source=index&project=web&limit=100`);
      const page = await res.json();
      const rows = page.items as Array<Record<string, unknown>>;
      const allowed = rows.filter((r) => r.verdict !== "DENIED")
        .map((r) => `${r.package}==${r.version}`).sort();
      // pip 23.0 reads a wheel's dependencies from the wheel itself: needsbad was
      // downloaded (and audited), then not installed because badpkg has no file.
      assert.deepEqual(allowed, [
        "constrained==1.0",
        "goodpkg==1.0",
        "idna==3.7",
        "initpkg==1.0",
        "needsbad==1.0",
      ]);
      const good = rows.find((r) => r.package === "goodpkg")!;
      assert.equal(good.requester, "local");
      assert.match(String(good.reason), /index download of goodpkg-1\.0-py3-none-any\.whl/);
      const refused = rows.filter((r) => r.verdict === "DENIED");
      assert.deepEqual(refused.map((r) => `${r.package}==${r.version}`), ["badpkg==1.0"]);
    });
  } finally {
    await server.close();
    await index.close();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
