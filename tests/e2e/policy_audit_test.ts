/**
 * End-to-end: `policy audit FILE…` as a subprocess against a real policyd on
 * loopback, for every real lock file in tests/fixtures/lockfiles placed in a
 * project under its usual name beside its manifest. The expected packages
 * and direct dependencies are read here by a different route than the
 * parsers (text blocks, JSON, regular expressions over the raw files).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { sarifValidator } from "../helpers/sarif.ts";
import { policy, tempGitRepo, writePolicyToml } from "../../cli/policy/_testing.ts";

const LOCKFILES = new URL("../fixtures/lockfiles/", import.meta.url);

function norm(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

function read(path: string): string {
  return Deno.readTextFileSync(new URL(path, LOCKFILES));
}

/** `[[header]]` blocks of a TOML lock, as raw text. */
function blocks(text: string, header: string): string[] {
  return text.split(new RegExp(`^\\[\\[${header}\\]\\]$`, "m")).slice(1);
}

function member(block: string, key: string): string | null {
  return new RegExp(`^${key} = "([^"]*)"`, "m").exec(block)?.[1] ?? null;
}

interface Expected {
  /** `name==version` of every entry that records a version (the project itself excluded). */
  versioned: Set<string>;
  /** Number of entries (the project itself excluded). */
  entries: number;
  /** Direct dependency names by the manifest. */
  direct: Set<string>;
}

function requirementNamesOf(strings: unknown[]): string[] {
  return strings.filter((s): s is string => typeof s === "string")
    .map((s) => norm(/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(s)![1]));
}

function pep621Direct(pyproject: string): Set<string> {
  // deno-lint-ignore no-explicit-any
  const doc = parseToml(pyproject) as any;
  const lists: unknown[][] = [
    doc.project?.dependencies ?? [],
    ...Object.values(doc.project?.["optional-dependencies"] ?? {}) as unknown[][],
    ...Object.values(doc["dependency-groups"] ?? {}) as unknown[][],
  ];
  return new Set(lists.flatMap(requirementNamesOf));
}

function tomlLock(lock: string, header: string, ownProject: RegExp, direct: Set<string>): Expected {
  const all = blocks(lock, header).filter((b) => !ownProject.test(b));
  const versioned = new Set(
    all.filter((b) => member(b, "version")).map((b) =>
      `${norm(member(b, "name")!)}==${member(b, "version")}`
    ),
  );
  return { versioned, entries: all.length, direct };
}

interface Case {
  name: string;
  /** Fixture path → path in the temp project. */
  files: Record<string, string>;
  /** The file passed to `policy audit`. */
  audit: string;
  expected: () => Expected;
  /** "pinned" column of tests/fixtures/lockfiles/README.md less the project's own entry. */
  readmePinned: number;
}

const CASES: Case[] = [
  {
    name: "uv.lock (pydantic, editable project, git source)",
    files: {
      "uv/pydantic__pydantic__uv.lock": "uv.lock",
      "uv/pydantic__pydantic__pyproject.toml": "pyproject.toml",
    },
    audit: "uv.lock",
    expected: () =>
      tomlLock(
        read("uv/pydantic__pydantic__uv.lock"),
        "package",
        /^source = \{ (editable|virtual) = "\." \}/m,
        pep621Direct(read("uv/pydantic__pydantic__pyproject.toml")),
      ),
    readmePinned: 111,
  },
  {
    name: "uv.lock (uv-fastapi-example, virtual project)",
    files: {
      "uv/astral-sh__uv-fastapi-example__uv.lock": "uv.lock",
      "uv/astral-sh__uv-fastapi-example__pyproject.toml": "pyproject.toml",
    },
    audit: "uv.lock",
    expected: () =>
      tomlLock(
        read("uv/astral-sh__uv-fastapi-example__uv.lock"),
        "package",
        /^source = \{ (editable|virtual) = "\." \}/m,
        pep621Direct(read("uv/astral-sh__uv-fastapi-example__pyproject.toml")),
      ),
    readmePinned: 34,
  },
  {
    name: "poetry.lock (2020, several versions of one name)",
    files: {
      "poetry/python-poetry__poetry__poetry.lock": "poetry.lock",
      "poetry/python-poetry__poetry__pyproject.toml": "pyproject.toml",
    },
    audit: "poetry.lock",
    expected: () => {
      // deno-lint-ignore no-explicit-any
      const poetry = (parseToml(read("poetry/python-poetry__poetry__pyproject.toml")) as any)
        .tool.poetry;
      const direct = new Set(
        [...Object.keys(poetry.dependencies), ...Object.keys(poetry["dev-dependencies"])]
          .map(norm).filter((n) => n !== "python"),
      );
      return tomlLock(read("poetry/python-poetry__poetry__poetry.lock"), "package", /^$/, direct);
    },
    readmePinned: 106,
  },
  {
    name: "pylock.toml (PEP 751, directory project entry)",
    files: {
      "pylock/Comfy-Org__comfy-cli__pylock.toml": "pylock.toml",
      "pylock/Comfy-Org__comfy-cli__pyproject.toml": "pyproject.toml",
    },
    audit: "pylock.toml",
    expected: () =>
      tomlLock(
        read("pylock/Comfy-Org__comfy-cli__pylock.toml"),
        "packages",
        /^directory = \{ path = "\."/m,
        pep621Direct(read("pylock/Comfy-Org__comfy-cli__pyproject.toml")),
      ),
    readmePinned: 47,
  },
  {
    name: "Pipfile.lock (editable git and path entries)",
    files: {
      "pipfile/pypa__pipenv__Pipfile.lock": "Pipfile.lock",
      "pipfile/pypa__pipenv__Pipfile": "Pipfile",
    },
    audit: "Pipfile.lock",
    expected: () => {
      const lock = JSON.parse(read("pipfile/pypa__pipenv__Pipfile.lock"));
      const versioned = new Set<string>();
      let entries = 0;
      for (const [section, packages] of Object.entries(lock)) {
        if (section === "_meta") continue;
        for (
          const [name, spec] of Object.entries(
            packages as Record<string, { path?: string; version?: string }>,
          )
        ) {
          if (spec.path === ".") continue;
          entries++;
          if (spec.version?.startsWith("==")) {
            versioned.add(`${norm(name)}==${spec.version.slice(2)}`);
          }
        }
      }
      // deno-lint-ignore no-explicit-any
      const pipfile = parseToml(read("pipfile/pypa__pipenv__Pipfile")) as any;
      const direct = new Set(
        [...Object.keys(pipfile.packages ?? {}), ...Object.keys(pipfile["dev-packages"] ?? {})]
          .map(norm),
      );
      return { versioned, entries, direct };
    },
    readmePinned: 86,
  },
  {
    name: "requirements/main.txt (pip-compile, hashes, continuations, main.in companion)",
    files: {
      "requirements/pypi__warehouse__main.txt": "requirements/main.txt",
      "requirements/pypi__warehouse__main.in": "requirements/main.in",
    },
    audit: "requirements/main.txt",
    expected: () => {
      const text = read("requirements/pypi__warehouse__main.txt");
      const pins = [
        ...text.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s\\;]+)/gm),
      ];
      const direct = new Set(
        read("requirements/pypi__warehouse__main.in").split("\n")
          .map((l) => /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(l)?.[1]).filter((n) => n !== undefined)
          .map((n) => norm(n!)),
      );
      return {
        versioned: new Set(pins.map((m) => `${norm(m[1])}==${m[2]}`)),
        entries: pins.length,
        direct,
      };
    },
    readmePinned: 166,
  },
  {
    name: "requirements/test.txt (celery, -r includes, markers, ranges)",
    files: Object.fromEntries([
      ["requirements/celery__celery__requirements/test.txt", "requirements/test.txt"],
      ...[
        ...Deno.readDirSync(new URL("requirements/celery__celery__requirements/extras", LOCKFILES)),
      ]
        .map((e) => [
          `requirements/celery__celery__requirements/extras/${e.name}`,
          `requirements/extras/${e.name}`,
        ]),
    ]),
    audit: "requirements/test.txt",
    expected: () => {
      const dir = "requirements/celery__celery__requirements/";
      const texts = [
        read(`${dir}test.txt`),
        ...[...Deno.readDirSync(new URL(`${dir}extras`, LOCKFILES))].map((e) =>
          read(`${dir}extras/${e.name}`)
        ),
      ];
      const lines = texts.flatMap((t) => t.split("\n"))
        .filter((l) => l.trim() && !l.startsWith("#") && !l.startsWith("-r"));
      const pins = lines.map((l) =>
        /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;]+)\s*(?:;|$)/.exec(l)
      ).filter((m) => m !== null);
      return {
        versioned: new Set(pins.map((m) => `${norm(m![1])}==${m![2]}`)),
        entries: lines.length,
        direct: new Set(lines.map((l) => norm(/^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(l)![1]))),
      };
    },
    readmePinned: 7,
  },
];

interface Row {
  package: string;
  version: string | null;
  pinned: boolean;
  source: string | null;
  direct: boolean;
  file: string;
  line: number;
  verdict: string | null;
  data: unknown;
}

async function projectWith(files: Record<string, string>, server: TestServer): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "policy-audit-e2e-" });
  await writePolicyToml(dir, server.url);
  for (const [from, to] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, to)), { recursive: true });
    await Deno.copyFile(new URL(from, LOCKFILES), join(dir, to));
  }
  return dir;
}

Deno.test("policy audit FILE --format json reports every package of every fixture lock file and marks direct ones", async (t) => {
  const server = await startTestServer();
  try {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const dir = await projectWith(c.files, server);
        try {
          const ran = await policy(["audit", c.audit, "--format", "json"], { cwd: dir });
          assert.ok([0, 1, 2].includes(ran.code), ran.stderr);
          const report = JSON.parse(ran.stdout);
          const rows = report.results as Row[];
          const expected = c.expected();
          assert.equal(expected.versioned.size, c.readmePinned, "fixture README count");
          assert.equal(rows.length, expected.entries);
          const reported = new Set(
            rows.filter((r) => r.version !== null).map((r) => `${r.package}==${r.version}`),
          );
          assert.deepEqual([...reported].sort(), [...expected.versioned].sort());
          for (const r of rows) {
            assert.equal(r.direct, expected.direct.has(r.package), `direct of ${r.package}`);
            assert.ok(r.line >= 1 && typeof r.file === "string");
            assert.ok(r.verdict !== null || r.source?.startsWith("path "), r.package);
            assert.ok("data" in r);
          }
          assert.ok(rows.some((r) => r.direct) && report.summary.transport_errors === 0);
          assert.equal(report.files[0].file, c.audit);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  } finally {
    await server.close();
  }
});

Deno.test("a requirements file with pycrypto: exit 2 and a valid SARIF result at that file and line", async (t) => {
  const server = await startTestServer();
  const dir = await Deno.makeTempDir({ prefix: "policy-audit-sarif-" });
  try {
    await writePolicyToml(dir, server.url);
    await Deno.writeTextFile(
      join(dir, "requirements.txt"),
      "requests==2.31.0 \\\n    --hash=sha256:58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f\n" +
        "pycrypto==2.6.1\n",
    );
    await t.step("--format sarif", async () => {
      const ran = await policy(["audit", "requirements.txt", "--format", "sarif"], { cwd: dir });
      assert.equal(ran.code, 2, ran.stderr);
      const sarif = JSON.parse(ran.stdout);
      assert.deepEqual(sarifValidator()(sarif), []);
      const results = sarif.runs[0].results;
      assert.equal(results.length, 1);
      assert.equal(results[0].ruleId, "DENIAL_BANNED");
      assert.equal(results[0].level, "error");
      assert.deepEqual(results[0].locations[0].physicalLocation, {
        artifactLocation: { uri: "requirements.txt" },
        region: { startLine: 3 },
      });
      assert.match(results[0].message.text, /^pycrypto==2\.6\.1 is DENIED: .*cryptography/);
    });
    await t.step("--format json passes the evaluation's data status through as is", async () => {
      const ran = await policy(["audit", "--format", "json"], { cwd: dir });
      assert.equal(ran.code, 2);
      const row = JSON.parse(ran.stdout).results.find((r: Row) => r.package === "pycrypto");
      const direct = await (await fetch(
        `${server.url}/api/v1/evaluate?package=pycrypto&version=2.6.1`,
      )).json();
      assert.ok(direct.data !== undefined && direct.data !== null, "the server sends data");
      assert.deepEqual(row.data, direct.data);
    });
    await t.step("discovered without FILE; table and markdown exit 2 too", async () => {
      const table = await policy(["audit"], { cwd: dir });
      assert.equal(table.code, 2);
      assert.match(table.stdout, /^DENIED +pycrypto==2\.6\.1 +direct +requirements\.txt:3 /m);
      const md = await policy(["audit", "--format", "markdown"], { cwd: dir });
      assert.equal(md.code, 2);
      assert.match(
        md.stdout,
        /^\| DENIED \| `pycrypto` \| 2\.6\.1 \| yes \| `requirements\.txt:3` \|/m,
      );
    });
    await t.step("--fail-on denied: provisional only exits 0; default exits 1", async () => {
      await Deno.writeTextFile(
        join(dir, "requirements.txt"),
        "left-pad==1.3.0\nrequests==2.31.0\n",
      );
      assert.equal((await policy(["audit"], { cwd: dir })).code, 1);
      assert.equal((await policy(["audit", "--fail-on", "denied"], { cwd: dir })).code, 0);
    });
    await t.step("bad option values and unreadable files are one-line errors", async () => {
      const bad = await policy(["audit", "--format", "xml"], { cwd: dir });
      assert.equal(bad.code, 64);
      assert.equal(bad.stderr.trimEnd().split("\n").length, 1);
      const missing = await policy(["audit", "nope.lock"], { cwd: dir });
      assert.equal(missing.code, 66);
      assert.equal(missing.stderr, "policy: Cannot read nope.lock\n");
      await Deno.writeTextFile(join(dir, "uv.lock"), "[[package]\n");
      const broken = await policy(["audit", "uv.lock"], { cwd: dir });
      assert.equal(broken.code, 65);
      assert.match(broken.stderr, /^policy: Cannot parse uv\.lock: /);
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--only-direct, and 1,200 distinct packages go out in three batch requests of at most 500", async () => {
  const logLines: string[] = [];
  const server = await startTestServer({ logLines });
  const dir = await Deno.makeTempDir({ prefix: "policy-audit-batch-" });
  try {
    await writePolicyToml(dir, server.url);
    const names = Array.from({ length: 1200 }, (_, i) => `pkg-${i}==1.0.${i}`);
    await Deno.writeTextFile(join(dir, "requirements.txt"), [...names, names[0]].join("\n") + "\n");
    const ran = await policy(["audit", "--format", "json", "--fail-on", "denied"], { cwd: dir });
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(JSON.parse(ran.stdout).results.length, 1201);
    const batches = logLines.filter((l) => l.includes('"path":"/api/v1/evaluate/batch"'));
    assert.equal(batches.length, 3);

    await Deno.writeTextFile(
      join(dir, "pyproject.toml"),
      `[project]\nname = "demo"\ndependencies = ["flask"]\n`,
    );
    await Deno.writeTextFile(
      join(dir, "uv.lock"),
      `version = 1

[[package]]
name = "demo"
version = "0.1.0"
source = { editable = "." }
dependencies = [{ name = "flask" }]

[[package]]
name = "flask"
version = "3.0.0"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "werkzeug"
version = "3.0.1"
source = { registry = "https://pypi.org/simple" }
`,
    );
    const direct = await policy(["audit", "uv.lock", "--only-direct", "--format", "json"], {
      cwd: dir,
    });
    assert.deepEqual(
      JSON.parse(direct.stdout).results.map((r: Row) => [r.package, r.direct]),
      [["flask", true]],
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("in a git work tree, SARIF locations are relative to the repository root", async () => {
  const server = await startTestServer();
  const repo = await tempGitRepo();
  try {
    const app = join(repo, "services", "app");
    await Deno.mkdir(app, { recursive: true });
    await writePolicyToml(app, server.url);
    await Deno.writeTextFile(join(app, "requirements.txt"), "pycrypto==2.6.1\n");
    const ran = await policy(["audit", "--format", "sarif"], { cwd: app });
    assert.equal(ran.code, 2, ran.stderr);
    const result = JSON.parse(ran.stdout).runs[0].results[0];
    assert.equal(
      result.locations[0].physicalLocation.artifactLocation.uri,
      "services/app/requirements.txt",
    );
    const json = await policy(["audit", "--format", "json"], { cwd: app });
    assert.equal(JSON.parse(json.stdout).results[0].file, "requirements.txt");
  } finally {
    await server.close();
    await Deno.remove(repo, { recursive: true });
  }
});
