import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { addedDependencies, type ManifestChange, runPrecommit } from "./precommit.ts";
import {
  plainRequirement,
  quickAdded,
  quickPrecommit,
  quickPyproject,
  quickQuery,
  quickRequirements,
} from "./precommit_quick.ts";
import { rangeQuery } from "../range_query.ts";
import { requirementName } from "../pyproject.ts";
import { normalizeName } from "../../../src/core/names.ts";
import { NOT_PLAIN_FORMS, PLAIN_FORMS } from "../../../src/core/names_cases.ts";
import type { EvaluationResult, PackageQuery } from "../api_client.ts";

/** Forms the quick readers accept (each must read exactly as the full readers do). */
const PLAIN = PLAIN_FORMS.filter((spec) => /^[A-Za-z]/.test(spec));

/** Forms left to the full readers. */
const NOT_PLAIN = [
  ...NOT_PLAIN_FORMS,
  "-r base.txt",
  "-c constraints.txt",
  "a==1.0 # pinned",
  "a==${VERSION}",
  "-e .",
  "./local",
  "a==1.0 --hash=sha256:ab",
  "a>=1 \\",
  "--index-url https://example.org/simple",
  "9lives==0.1", // pinnedVersion reads it as a Poetry constraint: no version
];

Deno.test("plain requirements read as the PEP 508 parser reads them, queries as rangeQuery builds them", () => {
  for (const spec of PLAIN) {
    const plain = plainRequirement(spec);
    assert.ok(plain, spec);
    assert.equal(plain.name, requirementName(spec), spec);
    const name = normalizeName(plain.name);
    assert.deepEqual(quickQuery(name, spec), rangeQuery(name, spec), spec);
  }
  for (const spec of NOT_PLAIN) {
    assert.equal(plainRequirement(spec), null, spec);
    assert.equal(quickRequirements(`requests==2.32.3\n${spec}\n`), null, spec);
  }
});

/** A client recording its batches: every package ALLOWED, except the `denied` names. */
function recording(denied: string[] = []) {
  const batches: PackageQuery[][] = [];
  return {
    batches,
    client: {
      serverUrl: "http://127.0.0.1:9",
      evaluateBatch(packages: PackageQuery[]): Promise<EvaluationResult[]> {
        batches.push(packages);
        return Promise.resolve(packages.map(({ package: spec, version }) => {
          const name = /^[\w.-]+/.exec(spec)![0];
          const verdict = denied.includes(name) ? "DENIED" as const : "ALLOWED" as const;
          return { package: name, version, verdict, reason: verdict, cves: [] } as EvaluationResult;
        }));
      },
    },
  };
}

const REQS_BEFORE = "# pinned\nflask==3.0.0\nrequests>=2.31\nold==1.0\n";
const REQS_AFTER = "# pinned\r\nflask==3.0.0\r\n  requests >= 2.32 , <3\r\n\r\n" +
  "# new\npycrypto==2.6.1\nFlask==9.9\nurllib3~=2.2\nplain\n";
const PYPROJECT = `[project]
name = "demo"
dependencies = ["requests>=2.31", " pycrypto==2.6.1 ", "pyyaml>=5.1,<7"]

[project.optional-dependencies]
docs = ["sphinx>=7", "requests==2.0"]
test = ["pytest~=8.2"]

[dependency-groups]
dev = ["ruff==0.5.0"]

[tool.uv]
dev-dependencies = ["mypy"]

[tool.black]
line-length = 100

[build-system]
requires = ["hatchling>=1.20", "setuptools"]
`;

/** Staged changes the quick path takes. */
const QUICK_CASES: Record<string, ManifestChange[]> = {
  "a requirements file with comments, CRLF, duplicates, a changed and a removed pin": [
    { path: "requirements.txt", before: REQS_BEFORE, after: REQS_AFTER },
  ],
  "a new requirements file": [{ path: "requirements/dev.txt", before: null, after: REQS_AFTER }],
  "a pyproject.toml with every list, before and after": [
    {
      path: "pyproject.toml",
      before: `[project]\ndependencies = ["requests>=2.31"]\n`,
      after: PYPROJECT,
    },
  ],
  "two manifests, the first naming a package wins": [
    { path: "pyproject.toml", before: null, after: PYPROJECT },
    { path: "requirements.txt", before: null, after: REQS_AFTER },
  ],
  "nothing added": [{ path: "requirements.txt", before: REQS_BEFORE, after: REQS_BEFORE }],
  "only a removal": [{ path: "requirements.txt", before: REQS_BEFORE, after: "flask==3.0.0\n" }],
};

Deno.test("the quick path decides exactly as the full check: same dependencies, batch, exit code and text", async (t) => {
  for (const [name, manifests] of Object.entries(QUICK_CASES)) {
    await t.step(name, async () => {
      assert.deepEqual(quickAdded(manifests, parseToml), addedDependencies(manifests));
      for (const denied of [[], ["pycrypto", "flask"]]) {
        const quick = recording(denied);
        const full = recording(denied);
        const result = await quickPrecommit(manifests, quick.client);
        assert.ok(result, "taken by the quick path");
        assert.deepEqual(result, await runPrecommit({ manifests, client: full.client }));
        assert.deepEqual(quick.batches, full.batches);
      }
    });
  }
  const denied = recording(["pycrypto"]);
  const blocked = await quickPrecommit(QUICK_CASES["a new requirements file"], denied.client);
  assert.equal(blocked?.code, 1, "a denied plain pin blocks the commit");
  assert.equal(denied.batches.length, 1, "one batch");
  assert.equal(denied.batches[0].length, 5);
});

/** Staged changes the quick path leaves to the full check. */
const FULL_CASES: Record<string, ManifestChange[]> = {
  "an include": [{ path: "requirements.txt", before: null, after: "-r base.txt\nflask==3.0.0\n" }],
  "HEAD's version has a marker": [
    { path: "requirements.txt", before: "a>=1; os_name == 'nt'\n", after: "flask==3.0.0\n" },
  ],
  "a Poetry project": [{
    path: "pyproject.toml",
    before: null,
    after: `[tool.poetry.dependencies]\npython = "^3.11"\nrequests = "^2.31"\n`,
  }],
  "a PEP 735 include": [{
    path: "pyproject.toml",
    before: null,
    after: `[dependency-groups]\ndev = ["ruff", { include-group = "lint" }]\n`,
  }],
  "unparsable TOML": [{ path: "pyproject.toml", before: null, after: "[project\n" }],
  "another manifest kind": [
    { path: "requirements.txt", before: null, after: "flask==3.0.0\n" },
    { path: "setup.py", before: null, after: "setup(install_requires=['flask'])\n" },
  ],
};

Deno.test("anything but plain requirements is left to the full check", async () => {
  for (const [name, manifests] of Object.entries(FULL_CASES)) {
    const { client, batches } = recording();
    assert.equal(await quickPrecommit(manifests, client), null, name);
    assert.equal(batches.length, 0, name);
  }
  assert.equal(quickPyproject({ project: [] }), null, "a project that is no table");
  assert.equal(quickPyproject({ project: { dependencies: "requests" } }), null);
});
