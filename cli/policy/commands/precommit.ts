/**
 * `policy precommit [--all]`: the command the git shim and the pre-commit
 * framework run. Without `--all` only dependencies the staged change adds or
 * changes count (each staged manifest diffed against HEAD), so a commit that
 * does not touch an already-committed denied dependency passes.
 *
 * @module
 */

import type { ApiClient } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import { ClientError, oneLine } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { fileAt, stagedPaths } from "../git.ts";
import type { ManifestChange } from "../hooks/precommit.ts";
import { manifestKind } from "../agents/manifest_kind.ts";
import { lazyImport } from "../lazy_import.ts";
import { stagedDiff, stagedDiffFromShim, type StagedFile } from "../staged_diff.ts";

/** Options of `precommit`. */
export interface PrecommitCommandOptions {
  /** Check every dependency of every manifest in the index, not only the staged change. */
  all?: boolean;
  /**
   * Standard input carries the staged diff the git shim's own git process
   * wrote (`install/precommit.ts`); git runs here only when it cannot be read.
   */
  stagedDiffStdin?: boolean;
}

/** The staged diff the shim piped in, or null to run git here. */
async function pipedDiff(io: Io): Promise<StagedFile[] | null> {
  try {
    return await stagedDiffFromShim(await io.readStdin());
  } catch {
    return null;
  }
}

async function stagedManifests(
  io: Io,
  all: boolean,
  piped: boolean,
): Promise<ManifestChange[]> {
  const cwd = io.cwd;
  // One git process for the names and both versions (the shim's, when it piped its output in);
  // file by file when it cannot be read exactly.
  const diff = all ? null : (piped ? await pipedDiff(io) : null) ?? await stagedDiff(cwd);
  if (diff !== null) {
    return diff.filter((f) =>
      manifestKind(f.path) !== null &&
      (manifestKind(f.path) !== "script" || f.after.includes("# /// script"))
    );
  }
  const changes: ManifestChange[] = [];
  for (const path of await stagedPaths(cwd, all)) {
    const kind = manifestKind(path);
    if (kind === null) continue;
    const head = () => all ? null : fileAt(cwd, "HEAD", path);
    if (kind === "script") {
      const after = await fileAt(cwd, "", path);
      // A .py file is a manifest only through a PEP 723 block; without one nothing is added.
      if (after === null || !after.includes("# /// script")) continue;
      changes.push({ path, before: await head(), after });
      continue;
    }
    // Both versions of a manifest are read at once (two git processes in parallel).
    const [after, before] = await Promise.all([fileAt(cwd, "", path), head()]);
    if (after !== null) changes.push({ path, before, after });
  }
  return changes;
}

/** Runs the pre-commit check; any failure to check blocks with a one-line reason (exit 1). */
export async function precommit(io: Io, options: PrecommitCommandOptions = {}): Promise<number> {
  // The git process starts first and `.policy.toml` is read and validated while it runs; a
  // configuration error still wins over anything git says (the diff's outcome is then dropped).
  const staged = stagedManifests(io, options.all ?? false, options.stagedDiffStdin ?? false);
  const settled = staged.then(() => {}, () => {});
  let config;
  try {
    config = await loadConfig(io.cwd);
  } catch (error) {
    await settled; // no git process outlives the command
    if (!(error instanceof ClientError)) throw error;
    io.stderr(`policy precommit: commit blocked: ${oneLine(error.message)}\n`);
    return 1;
  }
  let manifests;
  try {
    manifests = await staged;
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    io.stderr(`policy precommit: commit blocked: ${oneLine(error.message)}\n`);
    return 1;
  }
  // No manifest staged: nothing to parse or ask, so neither the API client nor a parser loads.
  if (manifests.length === 0) return 0;
  // The API client and the quick path (plain requirements such as `name==1.2`, read without the
  // requirement parser) are both needed from here on: loaded together.
  const [{ clientFromConfig }, { quickPrecommit }] = await Promise.all([
    lazyImport<typeof import("../api_client.ts")>(new URL("../api_client.ts", import.meta.url)),
    lazyImport<typeof import("../hooks/precommit_quick.ts")>(
      new URL("../hooks/precommit_quick.ts", import.meta.url),
    ),
  ]);
  let client: ApiClient | ClientError;
  try {
    client = clientFromConfig(config, { source: "precommit", env: io.env, fetch: io.fetch });
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    client = error;
  }
  const quick = await quickPrecommit(manifests, client);
  if (quick !== null) {
    io.stderr(quick.stderr);
    return quick.code;
  }
  const { runPrecommit } = await lazyImport<typeof import("../hooks/precommit.ts")>(
    new URL("../hooks/precommit.ts", import.meta.url),
  );
  const result = await runPrecommit({ manifests, client });
  io.stderr(result.stderr);
  return result.code;
}
