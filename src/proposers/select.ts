/**
 * Choosing the proposer once at start-up (SPEC §9, §15.7, §15.21):
 * `REGISTRY_PROPOSER` wins; otherwise `REGISTRY_REPO_URL` → github,
 * `REGISTRY_PATH` inside a git work tree → local_git, `REGISTRY_PATH` set with
 * a writable parent → local_file, else log_only with a warning.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { RegistryOptions } from "../registry/settings.ts";
import type { ProposerOptions } from "./settings.ts";
import { isInsideWorkTree } from "./git.ts";
import { createGithubProposer } from "./github.ts";
import { createLocalFileProposer } from "./local_file.ts";
import { createLocalGitProposer } from "./local_git.ts";
import { createLogOnlyProposer } from "./log_only.ts";
import { loadModuleProposer } from "./module.ts";
import type { Proposer, ProposerDeps } from "./types.ts";

/** Built-in proposer kinds. */
export type ProposerKind = "log_only" | "local_file" | "local_git" | "github";

/** What auto-detection chose and why. */
export interface Detection {
  kind: ProposerKind | `module:${string}`;
  reason: string;
}

async function writableDir(dir: string): Promise<boolean> {
  try {
    const probe = await Deno.makeTempFile({ dir, prefix: ".policyd-probe-" });
    await Deno.remove(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides which proposer the settings select, without constructing it
 * (also used by `policyd check-config`; never contacts the git host).
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { registryArea } from "../registry/settings.ts";
 * import { proposersArea } from "./settings.ts";
 * const detection = await detectProposer(
 *   optionsFromEnv(proposersArea, {}),
 *   optionsFromEnv(registryArea, {}),
 * );
 * detection.kind; // "log_only"
 * ```
 */
export async function detectProposer(
  options: ProposerOptions,
  registry: Pick<RegistryOptions, "path" | "pathSet">,
): Promise<Detection> {
  const explicit = options.proposer;
  if (explicit) return { kind: explicit as Detection["kind"], reason: "REGISTRY_PROPOSER" };
  if (options.repoUrl) return { kind: "github", reason: "REGISTRY_REPO_URL is set" };
  if (!registry.pathSet) return { kind: "log_only", reason: "REGISTRY_PATH is not set" };
  const parent = dirname(resolve(registry.path));
  const exists = await Deno.stat(parent).then((s) => s.isDirectory, () => false);
  if (exists && await isInsideWorkTree(parent)) {
    return { kind: "local_git", reason: "REGISTRY_PATH is inside a git work tree" };
  }
  if (exists && await writableDir(parent)) {
    return { kind: "local_file", reason: "REGISTRY_PATH is set and its directory is writable" };
  }
  return {
    kind: "log_only",
    reason: `the directory of REGISTRY_PATH (${parent}) is missing or not writable`,
  };
}

/**
 * Selects and constructs the proposer. A `module:` proposer that cannot be
 * loaded throws (start-up fails loudly).
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import { proposersArea } from "./settings.ts";
 * import { registryArea } from "../registry/settings.ts";
 * declare const live: LiveRegistry;
 * const env = { REGISTRY_PATH: "registry/registry.yaml" };
 * const proposer = await selectProposer({
 *   options: optionsFromEnv(proposersArea, env),
 *   registry: optionsFromEnv(registryArea, env),
 *   settings: env,
 *   log,
 *   reload: () => live.reload(),
 * });
 * proposer.name; // "local_file"
 * ```
 */
export async function selectProposer(
  deps: Omit<ProposerDeps, "registryPath"> & { registry: RegistryOptions },
): Promise<Proposer> {
  const { options, registry, log } = deps;
  const detection = await detectProposer(options, registry);
  const proposer = await construct(detection.kind, { ...deps, registryPath: registry.path });
  if (detection.kind === "log_only" && !options.proposer) {
    log.warn("no proposer configured: approval requests and proposals are only logged", {
      reason: detection.reason,
      hint: "set REGISTRY_PATH to a writable registry file or REGISTRY_PROPOSER",
    });
  } else {
    log.info("proposer selected", { proposer: proposer.name, reason: detection.reason });
  }
  return proposer;
}

function construct(kind: Detection["kind"], deps: ProposerDeps): Promise<Proposer> | Proposer {
  switch (kind) {
    case "log_only":
      return createLogOnlyProposer(deps.log);
    case "local_file":
      return createLocalFileProposer(deps);
    case "local_git":
      return createLocalGitProposer(deps);
    case "github":
      return createGithubProposer({
        options: deps.options,
        registryPath: deps.registryPath,
        log: deps.log,
      });
    default:
      return loadModuleProposer(kind, { settings: deps.settings, log: deps.log });
  }
}
