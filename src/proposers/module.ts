/**
 * `module:<specifier>:<Export>` proposers (SPEC §15.8, §15.29): the
 * specifier is split at the last `:`; a relative path resolves against the
 * working directory; the export is a class constructed with
 * `{ settings, log }`.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ModuleProposerOptions, Proposer } from "./types.ts";

/** A `module:` specifier that cannot be loaded; start-up fails with this message. */
export class ModuleLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModuleLoadError";
  }
}

/**
 * Splits `module:<specifier>:<Export>` and turns a path into a URL.
 *
 * @example
 * ```ts
 * parseModuleSpec("module:file:///x/p.ts:MyProposer", "/cwd"); // { url: "file:///x/p.ts", exportName: "MyProposer" }
 * parseModuleSpec("module:./p.ts:P", "/cwd"); // { url: "file:///cwd/p.ts", exportName: "P" }
 * ```
 */
export function parseModuleSpec(value: string, cwd: string): { url: string; exportName: string } {
  if (!value.startsWith("module:")) {
    throw new ModuleLoadError(`"${value}" does not start with module:`);
  }
  const rest = value.slice("module:".length);
  const at = rest.lastIndexOf(":");
  const specifier = at > 0 ? rest.slice(0, at) : "";
  const exportName = at > 0 ? rest.slice(at + 1) : "";
  if (!specifier || !/^[A-Za-z_$][\w$]*$/.test(exportName)) {
    throw new ModuleLoadError(`"${value}" is not module:<specifier>:<Export>`);
  }
  // A URL scheme of two or more letters (file:, https:, npm:, jsr:); one letter is a Windows drive.
  if (/^[a-z][a-z0-9+.-]+:/i.test(specifier)) return { url: specifier, exportName };
  const path = isAbsolute(specifier) ? specifier : resolve(cwd, specifier);
  return { url: pathToFileURL(path).href, exportName };
}

/**
 * Loads and constructs a `module:` proposer.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * const settings = { REGISTRY_PROPOSER: "module:./my_proposer.ts:MyProposer" };
 * const proposer = await loadModuleProposer("module:./my_proposer.ts:MyProposer", { settings, log });
 * ```
 */
export async function loadModuleProposer(
  value: string,
  options: ModuleProposerOptions,
  cwd: string = Deno.cwd(),
): Promise<Proposer> {
  const { url, exportName } = parseModuleSpec(value, cwd);
  let mod: Record<string, unknown>;
  try {
    mod = await import(url);
  } catch (error) {
    throw new ModuleLoadError(`cannot import proposer module ${url}: ${(error as Error).message}`);
  }
  const Export = mod[exportName];
  if (typeof Export !== "function") {
    throw new ModuleLoadError(`proposer module ${url} has no exported class ${exportName}`);
  }
  let instance: Partial<Proposer>;
  try {
    instance = new (Export as new (o: ModuleProposerOptions) => Partial<Proposer>)(options);
  } catch (error) {
    throw new ModuleLoadError(
      `constructing ${exportName} from ${url} failed: ${(error as Error).message}`,
    );
  }
  if (typeof instance?.propose !== "function") {
    throw new ModuleLoadError(`${exportName} from ${url} has no propose(rule, context) method`);
  }
  const name = typeof instance.name === "string" && instance.name
    ? instance.name
    : `module:${exportName}`;
  return {
    name,
    // Only a class that says it does not apply at once may run on an agent's request.
    appliesAtOnce: instance.appliesAtOnce !== false,
    propose: (rule, context) => instance.propose!.call(instance, rule, context),
    ...(typeof instance.syncMerged === "function"
      ? {
        syncMerged: (hint: { defaultBranch?: string }) => instance.syncMerged!.call(instance, hint),
      }
      : {}),
    ...(typeof instance.close === "function"
      ? { close: () => instance.close!.call(instance) }
      : {}),
  };
}
