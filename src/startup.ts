/**
 * Start-up of the composition root: the error a failed start-up throws and
 * the registry snapshot the server starts from.
 *
 * @module
 */
import type { Logger } from "./log/logger.ts";
import { compileRegistry, createSnapshot, emptySnapshot } from "./registry/compile.ts";
import type { RegistrySnapshot } from "./core/types.ts";

/** Thrown when the registry cannot be loaded at start-up. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

/**
 * Runs one start-up step, turning its failure into a {@link StartupError}
 * that says which step failed.
 *
 * @example
 * ```ts
 * import { startupStep } from "./startup.ts";
 * await startupStep("open the database", () => Promise.resolve(1)); // 1
 * ```
 */
export async function startupStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new StartupError(`cannot ${what}: ${(error as Error).message}`);
  }
}

/**
 * The registry snapshot the server starts from: the compiled file, or an empty
 * registry (with a warning) when the file does not exist.
 *
 * @example
 * ```ts
 * import { initialSnapshot } from "./startup.ts";
 * import { silentLogger } from "./log/logger.ts";
 * const snapshot = await initialSnapshot("/no/such/registry.toml", silentLogger, new Date());
 * snapshot.byName.size; // 0
 * ```
 */
export async function initialSnapshot(
  path: string,
  log: Logger,
  now: Date,
): Promise<RegistrySnapshot> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      log.warn("registry file not found; starting with an empty registry", { path });
      return await emptySnapshot(now);
    }
    throw new StartupError(`cannot read registry ${path}: ${(error as Error).message}`);
  }
  const compiled = await compileRegistry(text, now);
  if (!compiled.ok) {
    throw new StartupError(
      `invalid registry ${path}: ` +
        compiled.errors.map((e) => `${e.path}: ${e.message}`).join("; "),
    );
  }
  return createSnapshot(compiled.registry, compiled.contentHash);
}
