import assert from "node:assert/strict";
import { join } from "node:path";
import { type Environment, optionsFromEnv } from "../config/area.ts";
import { registryArea } from "../registry/settings.ts";
import { proposersArea } from "./settings.ts";
import { silentLogger } from "../log/logger.ts";
import { emptySnapshot } from "../registry/compile.ts";
import { createLiveRegistry, type LiveRegistry } from "../registry/live.ts";
import { git, initWorkTree } from "../../tests/helpers/git_fixture.ts";
import { lineDiff, withoutVersionHunk } from "../../tests/helpers/line_diff.ts";
import { readExampleRegistry } from "../registry/example.ts";
import { createLocalFileProposer } from "./local_file.ts";
import { createLocalGitProposer } from "./local_git.ts";
import { detectProposer } from "./select.ts";
import type { ProposalContext, Proposer, ProposerDeps } from "./types.ts";

const context: ProposalContext = {
  source: "operator",
  project: "web",
  requester: "ana",
  rationale: "needed for the export feature",
  extra: {},
};

/** The deps the root would build for an environment (its two areas, the env itself for module classes). */
function depsFor(env: Environment, reload: ProposerDeps["reload"]): ProposerDeps {
  return {
    options: optionsFromEnv(proposersArea, env),
    registryPath: optionsFromEnv(registryArea, env).path,
    settings: env,
    log: silentLogger,
    reload,
  };
}

const detect = (env: Environment) =>
  detectProposer(optionsFromEnv(proposersArea, env), optionsFromEnv(registryArea, env));

async function setup(registryPath: string) {
  const live = createLiveRegistry({
    path: registryPath,
    initial: await emptySnapshot(),
    log: silentLogger,
  });
  const env = { REGISTRY_PATH: registryPath, REGISTRY_PROPOSER: "local_file" };
  return { live, deps: depsFor(env, () => live.reload()) };
}

/** What a local_file test gets: its folder, the registry path, the live registry, the proposer. */
interface LocalFileFixture {
  dir: string;
  path: string;
  live: LiveRegistry;
  proposer: Proposer;
}

/** Runs `use` with a local_file proposer on `registry.yaml` in a fresh folder, removed afterwards. */
async function withLocalFileProposer(
  use: (fixture: LocalFileFixture) => Promise<void>,
  registryText?: string,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "registry.yaml");
    if (registryText !== undefined) await Deno.writeTextFile(path, registryText);
    const { live, deps } = await setup(path);
    await use({ dir, path, live, proposer: createLocalFileProposer(deps) });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("local_file writes the rule, reloads and reports applied", () =>
  withLocalFileProposer(async ({ path, live, proposer }) => {
    const result = await proposer.propose({ name: "Left_Pad", status: "approved" }, context);
    assert.equal(result.status, "applied", result.detail);
    assert.equal(live.current().byName.get("left-pad")?.status, "approved");
    assert.match(await Deno.readTextFile(path), /name: left-pad/);
    const again = await proposer.propose({ name: "left-pad", status: "approved" }, context);
    assert.equal(again.status, "applied");
    assert.match(again.detail, /already has this rule/);
  }));

Deno.test("local_file leaves the registry byte-identical when validation fails", () => {
  const original = "# keep me exactly\npackages:\n  - name: requests\n    status: preferred\n";
  return withLocalFileProposer(async ({ dir, path, proposer }) => {
    const before = await Deno.readFile(path);
    const bad = await proposer.propose({
      name: "pyyaml",
      status: "version-constrained",
      min_version: "7",
      max_version: "6",
    }, context);
    assert.equal(bad.status, "failed");
    assert.match(bad.detail, /min_version/);
    assert.deepEqual(await Deno.readFile(path), before);
    const badName = await proposer.propose({ name: "not a name!", status: "approved" }, context);
    assert.equal(badName.status, "failed");
    assert.deepEqual(await Deno.readFile(path), before);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), [
      "registry.yaml",
    ]);
  }, original);
});

Deno.test("local_file serialises concurrent proposals so no update is lost", () =>
  withLocalFileProposer(async ({ path, live, proposer }) => {
    const names = Array.from({ length: 25 }, (_, i) => `pkg-${i}`);
    const results = await Promise.all(
      names.map((name) => proposer.propose({ name, status: "approved" }, context)),
    );
    assert.ok(results.every((r) => r.status === "applied"), JSON.stringify(results));
    const text = await Deno.readTextFile(path);
    for (const name of names) assert.match(text, new RegExp(`name: ${name}\\n`));
    assert.equal(live.current().registry.packages.length, names.length);
  }));

Deno.test("local_git commits once per write as the bot and is auto-detected in a work tree", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await initWorkTree(dir, {
      "registry/registry.yaml": "packages:\n  - name: requests\n    status: preferred\n",
    });
    const path = join(dir, "registry", "registry.yaml");
    const { live } = await setup(path);
    const env = {
      REGISTRY_PATH: path,
      REGISTRY_BOT_AUTHOR_NAME: "policy-bot",
      REGISTRY_BOT_AUTHOR_EMAIL: "bot@policy.test",
    };
    assert.equal((await detect(env)).kind, "local_git");
    // Someone else's staged change must not be swept into the bot's commit.
    await Deno.writeTextFile(join(dir, "notes.txt"), "wip\n");
    await git(["add", "notes.txt"], dir);
    const proposer = createLocalGitProposer(depsFor(env, () => live.reload()));
    const first = await proposer.propose({ name: "attrs", status: "approved" }, context);
    const second = await proposer.propose({ name: "left-pad", status: "approved" }, {
      ...context,
      source: "agent",
    });
    const unchanged = await proposer.propose({ name: "left-pad", status: "approved" }, context);
    assert.equal(first.status, "applied", first.detail);
    assert.equal(second.status, "applied", second.detail);
    assert.equal(unchanged.status, "applied");
    assert.equal(unchanged.commit_sha, undefined);
    const log = (await git(["log", "--format=%an <%ae>|%s|%H"], dir)).trim().split("\n");
    assert.equal(log.length, 3);
    assert.deepEqual(log.slice(0, 2).map((l) => l.split("|").slice(0, 2).join("|")), [
      "policy-bot <bot@policy.test>|policy: approved left-pad",
      "policy-bot <bot@policy.test>|policy: approved attrs",
    ]);
    assert.equal(log[0].split("|")[2], second.commit_sha);
    assert.equal(
      (await git(["show", "--name-only", "--format=", "HEAD"], dir)).trim(),
      "registry/registry.yaml",
    );
    assert.equal((await git(["diff", "--cached", "--name-only"], dir)).trim(), "notes.txt");
    assert.equal(live.current().byName.get("left-pad")?.status, "approved");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("detectProposer() follows the seed's order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "registry.yaml");
    assert.equal((await detect({})).kind, "log_only");
    assert.equal((await detect({ REGISTRY_PATH: "" })).kind, "log_only");
    assert.equal((await detect({ REGISTRY_PATH: path })).kind, "local_file");
    assert.equal(
      (await detect({ REGISTRY_PATH: join(dir, "missing", "r.yaml") })).kind,
      "log_only",
    );
    assert.equal(
      (await detect({ REGISTRY_PATH: path, REGISTRY_REPO_URL: "https://github.com/o/r" })).kind,
      "github",
    );
    assert.equal(
      (await detect({ REGISTRY_PATH: path, REGISTRY_PROPOSER: "log_only" }))
        .kind,
      "log_only",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** What a local_git test on the example registry gets. */
interface ExampleGitFixture {
  dir: string;
  path: string;
  example: string;
  live: LiveRegistry;
  proposer: Proposer;
}

/** Runs `use` with a local_git proposer on the example registry in a fresh work tree. */
async function withExampleGitRepo(use: (fixture: ExampleGitFixture) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    const example = await readExampleRegistry();
    await initWorkTree(dir, { "registry.yaml": example });
    const path = join(dir, "registry.yaml");
    const { live } = await setup(path);
    const proposer = createLocalGitProposer(depsFor({ REGISTRY_PATH: path }, () => live.reload()));
    await use({ dir, path, example, live, proposer });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("local_git's commit of a rule to the commented example registry changes only that rule's lines", () =>
  withExampleGitRepo(async ({ dir, path, example, proposer }) => {
    const result = await proposer.propose(
      { name: "left-pad", status: "approved", reason: "reviewed" },
      context,
    );
    assert.equal(result.status, "applied", result.detail);
    const committed = await git(["show", "HEAD:registry.yaml"], dir);
    assert.deepEqual(withoutVersionHunk((await lineDiff(example, committed)).hunks, "2026.11.21"), [
      {
        removed: [],
        added: ["  - name: left-pad", "    status: approved", "    reason: reviewed"],
      },
    ]);
    assert.equal(committed, await Deno.readTextFile(path));
  }));

Deno.test("local_file and local_git withdraw a rule: the file is back byte for byte, and committed", async () => {
  await withExampleGitRepo(async ({ dir, path, example, live, proposer }) => {
    await proposer.propose({ name: "left-pad", status: "approved", reason: "reviewed" }, context);
    assert.equal(live.current().byName.get("left-pad")?.status, "approved");
    const removed = await proposer.withdraw!("Left_Pad", context);
    assert.equal(removed.status, "applied", removed.detail);
    assert.match(removed.detail, /removed/);
    assert.ok(removed.commit_sha);
    // Back byte for byte but for the version value: the rules changed twice, so it is refreshed.
    const back = await Deno.readTextFile(path);
    assert.deepEqual(withoutVersionHunk((await lineDiff(example, back)).hunks, "2026.11.21"), []);
    assert.equal(live.current().byName.has("left-pad"), false);
    const subject = (await git(["log", "-1", "--format=%s"], dir)).trim();
    assert.equal(subject, "policy: removed left-pad");
    const nothing = await proposer.withdraw!("left-pad", context);
    assert.equal(nothing.status, "applied");
    assert.match(nothing.detail, /has no rule for left-pad; nothing written/);
    assert.equal(nothing.commit_sha, undefined);
  });
  await withLocalFileProposer(async ({ path, live, proposer }) => {
    const original = "packages:\n  - name: requests\n    status: preferred\n";
    await Deno.writeTextFile(path, original);
    await proposer.propose({ name: "six", status: "approved" }, context);
    const removed = await proposer.withdraw!("six", context);
    assert.equal(removed.status, "applied", removed.detail);
    assert.equal(await Deno.readTextFile(path), original);
    assert.equal(live.current().byName.has("six"), false);
  });
});
