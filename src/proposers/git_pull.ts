/**
 * The merge webhook's pull for every proposer but github (SPEC §15.9):
 * `git pull --ff-only` when `REGISTRY_PATH` lies in a git work tree with an
 * upstream; otherwise nothing to pull and the reload reads the file as is.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { gitDetail, isInsideWorkTree, runGit } from "./git.ts";
import type { SyncOutcome } from "./types.ts";

/**
 * Pulls the work tree that holds `registryFile`.
 *
 * @example
 * ```ts
 * const outcome = await pullRegistryWorkTree("./registry/registry.yaml");
 * outcome.ok; // false only when the pull itself failed
 * ```
 */
export async function pullRegistryWorkTree(
  registryFile: string,
  secrets: ReadonlyArray<string | undefined> = [],
): Promise<SyncOutcome> {
  const dir = dirname(resolve(registryFile));
  const exists = await Deno.stat(dir).then(() => true, () => false);
  if (!exists || !(await isInsideWorkTree(dir))) {
    return { ok: true, detail: "REGISTRY_PATH is not in a git work tree; nothing to pull" };
  }
  const upstream = await runGit(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"], {
    cwd: dir,
  });
  if (!upstream.ok) {
    return { ok: true, detail: "the registry work tree has no upstream; nothing to pull" };
  }
  const pulled = await runGit(["pull", "--ff-only", "--quiet"], { cwd: dir, timeoutMs: 120_000 });
  if (!pulled.ok) {
    return { ok: false, detail: `git pull --ff-only failed: ${gitDetail(pulled, secrets)}` };
  }
  return { ok: true, detail: `pulled ${upstream.stdout.trim()}` };
}
