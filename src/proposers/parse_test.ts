import assert from "node:assert/strict";
import { parseRepoSlug } from "./github_repo.ts";
import { parseModuleSpec } from "./module.ts";
import { redact } from "./git.ts";

Deno.test("parseRepoSlug() reads owner/repo from the URL forms GitHub uses", async (t) => {
  const cases: Array<[string | undefined, string | undefined, string | null]> = [
    [undefined, "https://github.com/acme/policy", "acme/policy"],
    [undefined, "https://github.com/acme/policy.git", "acme/policy"],
    [undefined, "git@github.com:acme/policy.git", "acme/policy"],
    [undefined, "ssh://git@github.example.com/acme/policy.git", "acme/policy"],
    [undefined, "/tmp/remote.git", null],
    ["o/r", "/tmp/remote.git", "o/r"],
    ["o/r", "https://github.com/acme/policy", "o/r"],
    [undefined, undefined, null],
  ];
  for (const [explicit, url, expected] of cases) {
    await t.step(`${explicit} ${url}`, () => {
      const slug = parseRepoSlug(explicit, url);
      assert.equal(slug ? `${slug.owner}/${slug.repo}` : null, expected);
    });
  }
});

Deno.test("parseModuleSpec() splits at the last colon and resolves paths against the working directory", () => {
  assert.deepEqual(parseModuleSpec("module:file:///x/p.ts:MyProposer", "/cwd"), {
    url: "file:///x/p.ts",
    exportName: "MyProposer",
  });
  assert.deepEqual(parseModuleSpec("module:./lib/p.ts:P", "/cwd"), {
    url: "file:///cwd/lib/p.ts",
    exportName: "P",
  });
  assert.deepEqual(parseModuleSpec("module:/abs/p.ts:P", "/cwd"), {
    url: "file:///abs/p.ts",
    exportName: "P",
  });
  assert.throws(() => parseModuleSpec("module:p.ts", "/cwd"));
  assert.throws(() => parseModuleSpec("module:p.ts:not-an-identifier", "/cwd"));
});

Deno.test("redact() hides URL credentials and given secrets", () => {
  const text = redact(
    "fatal: https://x-access-token:ghp_abcdef@github.com/o/r failed with ghp_abcdef",
    ["ghp_abcdef"],
  );
  assert.equal(text.includes("ghp_abcdef"), false);
  assert.match(text, /https:\/\/\*\*\*@github.com/);
});
