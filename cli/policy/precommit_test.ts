import assert from "node:assert/strict";
import { DENIED_MARKER, deniedCount, runPrecommit } from "./hooks/precommit.ts";
import type { EvaluationResult, PackageQuery } from "./api_client.ts";
import { ServerError, ServerUnreachable } from "./exit_codes.ts";

function client(verdicts: Record<string, Partial<EvaluationResult>>, seen: PackageQuery[][] = []) {
  return {
    serverUrl: "http://127.0.0.1:8765",
    evaluateBatch(packages: PackageQuery[]): Promise<EvaluationResult[]> {
      seen.push(packages);
      return Promise.resolve(packages.map((p) => {
        // Like the server: a range (`pyyaml>=5.1`) is judged at the newest release it admits.
        const name = /^[A-Za-z0-9._-]+/.exec(p.package)![0];
        const resolved = name === p.package ? null : "6.0.2";
        return {
          package: name,
          version: p.version ?? resolved,
          verdict: "ALLOWED" as const,
          reason: "",
          cves: [],
          ...verdicts[name],
        } as EvaluationResult;
      }));
    },
  };
}

const STAGED = `[project]\ndependencies = ["requests>=2.31", "pycrypto==2.6.1", "pyyaml>=5.1"]\n`;

Deno.test("runPrecommit() passes silently when pyproject.toml is not staged", async () => {
  const seen: PackageQuery[][] = [];
  assert.deepEqual(await runPrecommit({ manifests: [], client: client({}, seen) }), {
    code: 0,
    stderr: "",
  });
  assert.equal(seen.length, 0);
});

Deno.test("runPrecommit() blocks a DENIED dependency: the human text first, the structured line last", async () => {
  const seen: PackageQuery[][] = [];
  const result = await runPrecommit({
    manifests: [{ path: "pyproject.toml", before: null, after: STAGED }],
    client: client({
      pycrypto: {
        verdict: "DENIED",
        reason: "unmaintained",
        denial_category: "DENIAL_BANNED",
        replacement: "cryptography",
      },
      pyyaml: {
        verdict: "DENIED",
        reason: "below 6.0.1",
        denial_category: "DENIAL_VERSION_CONSTRAINT",
        cves: [{ id: "CVE-2020-14343", score: 9.8 }],
      },
    }, seen),
  });
  assert.equal(result.code, 1);
  assert.equal(seen.length, 1, "one batch call");
  assert.deepEqual(seen[0], [
    { package: "requests>=2.31", version: null },
    { package: "pycrypto", version: "2.6.1" },
    { package: "pyyaml>=5.1", version: null },
  ]);
  const lines = result.stderr.trimEnd().split("\n");
  const last = lines.at(-1)!;
  const rest = lines.slice(0, -1);
  assert.equal(
    rest[0],
    "policy precommit: commit blocked: 2 of the 3 dependencies checked are denied in the " +
      "staged pyproject.toml by the dependency policy.",
    "people read the top: the explanation comes first",
  );
  assert.ok(last.startsWith(DENIED_MARKER));
  assert.deepEqual(JSON.parse(last.slice(DENIED_MARKER.length)), {
    denied: [
      {
        package: "pycrypto",
        version: "2.6.1",
        verdict: "DENIED",
        reason: "unmaintained",
        denial_category: "DENIAL_BANNED",
        replacement: "cryptography",
        cves: [],
      },
      {
        package: "pyyaml",
        version: "6.0.2",
        verdict: "DENIED",
        reason: "below 6.0.1",
        denial_category: "DENIAL_VERSION_CONSTRAINT",
        replacement: null,
        cves: ["CVE-2020-14343"],
      },
    ],
    checked: 3,
  });
  assert.match(rest.join("\n"), /use cryptography instead/);
});

Deno.test("deniedCount() agrees in number", () => {
  assert.equal(deniedCount(1, 1), "the dependency checked is denied");
  assert.equal(deniedCount(2, 2), "all 2 dependencies checked are denied");
  assert.equal(deniedCount(1, 3), "1 of the 3 dependencies checked is denied");
  assert.equal(deniedCount(2, 3), "2 of the 3 dependencies checked are denied");
});

Deno.test("runPrecommit() passes with a warning on a fail-open transport error", async () => {
  const result = await runPrecommit({
    manifests: [{ path: "pyproject.toml", before: null, after: STAGED }],
    client: client({
      requests: { transport_error: true },
      pycrypto: { transport_error: true },
      pyyaml: { transport_error: true },
    }),
  });
  assert.equal(result.code, 0);
  assert.match(result.stderr, /warning: .*unreachable/);
});

Deno.test("runPrecommit() blocks with one line when the server cannot be used", async (t) => {
  for (
    const error of [
      new ServerUnreachable("http://127.0.0.1:1", "refused"),
      new ServerError(503, "db down"),
    ]
  ) {
    await t.step(error.name, async () => {
      const result = await runPrecommit({
        manifests: [{ path: "pyproject.toml", before: null, after: STAGED }],
        client: error,
      });
      assert.equal(result.code, 1);
      assert.equal(result.stderr.trimEnd().split("\n").length, 1);
      assert.match(result.stderr, /commit blocked/);
    });
  }
});

Deno.test("runPrecommit() checks the readable lines and names the ones the change made unreadable", async () => {
  const result = await runPrecommit({
    manifests: [{
      path: "requirements.txt",
      before: "old odd line!!\nflask==3.0.0\n",
      after: "old odd line!!\nflask==3.0.0\nnew odd line!!\npycrypto==2.6.1\n",
    }],
    client: client({ pycrypto: { verdict: "DENIED", reason: "unmaintained" } }),
  });
  assert.equal(result.code, 1);
  assert.ok(result.stderr.trimEnd().split("\n").at(-1)!.startsWith(DENIED_MARKER));
  const warnings = result.stderr.split("\n").filter((l) => l.includes("warning:"));
  assert.deepEqual(warnings, [
    "policy precommit: warning: requirements.txt line 3: not a requirement: new odd line!!; not checked",
  ]);
});
