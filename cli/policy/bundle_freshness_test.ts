import assert from "node:assert/strict";
import { headCommit, type ReadText, staleBundleWarning } from "./bundle_freshness.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const BUNDLE = "/src/policyd/dist/policy/lib/cli/policy/program.js";

/** A fake file system: path → text. */
const files = (entries: Record<string, string>): ReadText => (path) => entries[path] ?? null;

Deno.test("HEAD is read through a loose ref, packed-refs, or as a detached commit", () => {
  assert.equal(headCommit("/r/.git", files({ "/r/.git/HEAD": `${A}\n` })), A);
  assert.equal(
    headCommit(
      "/r/.git",
      files({ "/r/.git/HEAD": "ref: refs/heads/main\n", "/r/.git/refs/heads/main": `${B}\n` }),
    ),
    B,
  );
  const packed =
    `# pack-refs with: peeled fully-peeled sorted\n${A} refs/heads/other\n${B} refs/heads/main\n`;
  assert.equal(
    headCommit(
      "/r/.git",
      files({ "/r/.git/HEAD": "ref: refs/heads/main\n", "/r/.git/packed-refs": packed }),
    ),
    B,
  );
  assert.equal(headCommit("/r/.git", files({ "/r/.git/HEAD": "ref: refs/heads/gone\n" })), null);
  assert.equal(headCommit("/r/.git", files({ "/r/.git/HEAD": "garbage\n" })), null);
  assert.equal(headCommit("/r/.git", files({})), null);
});

Deno.test("a linked worktree: .git is a file, its branches live in the main repository", () => {
  const read = files({
    "/wt/.git": "gitdir: /main/.git/worktrees/wt\n",
    "/main/.git/worktrees/wt/HEAD": "ref: refs/heads/feature\n",
    "/main/.git/worktrees/wt/commondir": "../..\n",
    "/main/.git/refs/heads/feature": `${B}\n`,
  });
  const warning = staleBundleWarning(A, "/wt/dist/policy/policy.js", read);
  assert.match(
    warning ?? "",
    /built from commit aaaaaaaaaaaa; its checkout is now at bbbbbbbbbbbb/,
  );
});

Deno.test("the warning: only when the checkout above the bundle moved on", () => {
  const checkout = (head: string) => files({ "/src/policyd/.git/HEAD": `${head}\n` });
  assert.equal(staleBundleWarning(A, BUNDLE, checkout(A)), null, "up to date");
  assert.equal(
    staleBundleWarning(A, BUNDLE, checkout(B)),
    "policy: warning: this client was built from commit aaaaaaaaaaaa; its checkout is now at " +
      "bbbbbbbbbbbb: run `deno task install` there to rebuild it\n",
  );
  assert.equal(staleBundleWarning(null, BUNDLE, checkout(B)), null, "commit unknown at build");
  assert.equal(staleBundleWarning(A, undefined, checkout(B)), null, "not a file");
  assert.equal(staleBundleWarning(A, BUNDLE, files({})), null, "not in a git checkout");
});
