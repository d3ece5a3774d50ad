import assert from "node:assert/strict";
import { join } from "node:path";
import { gitIn, tempGitRepo } from "./_testing.ts";
import { manifestKind } from "./agents/manifest_kind.ts";
import { fileAt, git, stagedPaths } from "./git.ts";
import {
  GIT_EXIT_TRAILER,
  parseStagedDiff,
  STAGED_DIFF_ARGV,
  stagedDiff,
  stagedDiffFromShim,
} from "./staged_diff.ts";

/** Writes `files` (text or bytes) into `dir`, creating folders. */
async function write(dir: string, files: Record<string, string | Uint8Array>) {
  for (const [name, content] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(join(dir, name), content);
    else await Deno.writeFile(join(dir, name), content);
  }
}

/** The staged manifests read file by file (`git diff --name-only`, then `git show` per version). */
async function fileByFile(cwd: string) {
  const files = [];
  for (const path of await stagedPaths(cwd, false)) {
    if (manifestKind(path) === null) continue;
    files.push({
      path,
      before: await fileAt(cwd, "HEAD", path),
      after: await fileAt(cwd, "", path),
    });
  }
  return files;
}

const COMMITTED = {
  "requirements.txt": "requests==2.32.3\r\nflask>=3\r\n",
  "sub/pyproject.toml": `[project]\nname = "x"\ndependencies = ["a>=1"]`,
  "tool.py": "print('no block')\n",
  "setup.cfg": "[options]\ninstall_requires =\n    six\n",
  "data.txt": "not a manifest\n",
};

const STAGED = {
  "requirements.txt": "requests==2.32.3\r\nflask>=3\r\n\r\nnumpy==2.0\r\n",
  "sub/pyproject.toml": `[project]\nname = "x"\ndependencies = ["a>=1", "b<2"]\n`,
  "tool.py": "# /// script\n# dependencies = ['rich']\n# ///\n",
  "setup.cfg": "[options]\ninstall_requires =\n\n    six\n    attrs\n",
  "data.txt": "still not a manifest\n",
  "REQUIREMENTS-dev.TXT": "\uFEFFpytest\n",
  "requirements/base.in": "django\n",
  "deep/er/constraints.txt": "urllib3<2",
  "Pipfile": '[packages]\nrequests = "*"\n',
  "tox.ini": "[testenv]\ndeps = pytest\n",
  "environment.yaml": "dependencies:\n  - pip:\n    - rich\n",
  "notes/readme.md": "- a line\n+ another\n@@ not a hunk\ndiff --git a/x b/x\n",
  "app/main.py": " \n-\n+\n\\\n",
};

/** A repository with {@link COMMITTED} committed and {@link STAGED} staged over it. */
async function stagedRepo(): Promise<string> {
  const dir = await tempGitRepo();
  await write(dir, COMMITTED);
  await gitIn(dir, ["add", "-A"]);
  await gitIn(dir, ["commit", "-q", "-m", "manifests"]);
  await write(dir, STAGED);
  await gitIn(dir, ["add", "-A"]);
  return dir;
}

Deno.test("stagedDiff: one git process reads every staged manifest exactly as git show does", async () => {
  const dir = await stagedRepo();
  try {
    const expected = await fileByFile(dir);
    assert.equal(expected.length, 11, "every manifest kind is staged");
    const read = await stagedDiff(dir);
    assert.ok(read, "read from one diff");
    assert.deepEqual(read.filter((f) => manifestKind(f.path) !== null), expected);
    assert.ok(!read.some((f) => f.path === "data.txt" || f.path.endsWith(".md")), "others skipped");
    // Configuration that changes the patch's look reads the same or is refused, never misread.
    for (
      const config of ["diff.suppressBlankEmpty=true", "diff.noprefix=true", "color.ui=always"]
    ) {
      await gitIn(dir, ["config", ...config.split("=")]);
      assert.deepEqual((await stagedDiff(dir))?.filter((f) => manifestKind(f.path)), expected);
    }
    // From a sub-folder, paths are relative to it and files outside it are left out.
    assert.deepEqual(await stagedDiff(join(dir, "sub")), [{
      path: "pyproject.toml",
      before: COMMITTED["sub/pyproject.toml"],
      after: STAGED["sub/pyproject.toml"],
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stagedDiff: what a patch cannot carry exactly is refused (null), so git show reads it", async (t) => {
  const cases: Record<string, Record<string, string | Uint8Array>> = {
    "bytes that are not UTF-8": { "requirements.txt": new Uint8Array([0x61, 0xff, 0x0a]) },
    "an empty new manifest": { "requirements-new.txt": "" },
    "a NUL byte (binary)": { "requirements.txt": "a\0b\n" },
  };
  for (const [name, files] of Object.entries(cases)) {
    await t.step(name, async () => {
      const dir = await tempGitRepo({ "requirements.txt": "a==1\n" });
      try {
        await write(dir, files);
        await gitIn(dir, ["add", "-A"]);
        assert.equal(await stagedDiff(dir), null);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
  await t.step("a mode-only change", async () => {
    const dir = await tempGitRepo({ "requirements.txt": "a==1\n" });
    try {
      await gitIn(dir, ["update-index", "--chmod=+x", "requirements.txt"]);
      assert.equal(await stagedDiff(dir), null);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("parseStagedDiff: a version whose text does not hash to its blob id is refused", async () => {
  const dir = await tempGitRepo({ "requirements.txt": "a==1\n" });
  try {
    await write(dir, { "requirements.txt": "a==1\nb==2\n" });
    await gitIn(dir, ["add", "-A"]);
    const out = (await git(
      ["diff", "--cached", "--raw", "-z", "--no-abbrev", "-p", "--full-index", "-U99"],
      dir,
    )).stdout;
    assert.deepEqual(await parseStagedDiff(out), [
      { path: "requirements.txt", before: "a==1\n", after: "a==1\nb==2\n" },
    ]);
    assert.equal(await parseStagedDiff(out.replace("+b==2", "+b==3")), null);
    assert.equal(await parseStagedDiff(out.replace("@@ -1 +1,2 @@", "@@ -1 +1,3 @@")), null);
    assert.equal(await parseStagedDiff(out.slice(0, out.indexOf("@@"))), null);
    assert.deepEqual(await parseStagedDiff(""), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stagedDiffFromShim: the shim's own git output is read as stagedDiff reads it; anything else is null", async () => {
  const dir = await stagedRepo();
  try {
    // The shim's own pipeline, run by a real shell: git's output, then its exit status.
    const pipe = (gitArgs: string[]) =>
      new Deno.Command("sh", {
        args: ["-c", `{ git "$@" 2>/dev/null; echo "${GIT_EXIT_TRAILER}$?"; }`, "sh", ...gitArgs],
        cwd: dir,
        stdout: "piped",
      }).output().then((out) => new TextDecoder().decode(out.stdout));
    const piped = await pipe([...STAGED_DIFF_ARGV]);
    assert.deepEqual(await stagedDiffFromShim(piped), await stagedDiff(dir));
    // Nothing staged: an empty diff, read as no files (not as a failure).
    await gitIn(dir, ["commit", "-q", "-m", "staged"]);
    assert.deepEqual(await stagedDiffFromShim(await pipe([...STAGED_DIFF_ARGV])), []);
    // A failed git (its status is not 0), a missing trailer, a cut or altered diff: null.
    const failed = await pipe(["diff", "--no-such-option"]);
    assert.match(failed, new RegExp(`^${GIT_EXIT_TRAILER}[1-9]\\d*\\n$`));
    assert.equal(await stagedDiffFromShim(failed), null);
    assert.equal(await stagedDiffFromShim(""), null);
    assert.equal(await stagedDiffFromShim(piped.slice(0, -`${GIT_EXIT_TRAILER}0\n`.length)), null);
    const cut = piped.slice(0, piped.indexOf("numpy")) + `\n${GIT_EXIT_TRAILER}0\n`;
    assert.equal(await stagedDiffFromShim(cut), null);
    assert.equal(await stagedDiffFromShim(piped.replace("numpy==2.0", "numpy==2.1")), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
