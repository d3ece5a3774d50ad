/**
 * `policyd registry compile SOURCE DESTINATION`: YAML → compiled JSON.
 *
 * @module
 */
import { compileRegistry } from "../../../src/registry/compile.ts";
import { writeFileAtomic } from "../../../src/registry/files.ts";
import { CommandError, type CommandIO } from "../io.ts";

/** Compiles `source` to `destination`; exit 1 with path-qualified errors. */
export async function registryCompile(
  source: string,
  destination: string,
  io: CommandIO,
): Promise<number> {
  let text: string;
  try {
    text = await Deno.readTextFile(source);
  } catch (error) {
    throw new CommandError(`cannot read ${source}: ${(error as Error).message}`);
  }
  const compiled = await compileRegistry(text);
  if (!compiled.ok) {
    for (const e of compiled.errors) io.stderr(`${source}: ${e.path}: ${e.message}\n`);
    return 1;
  }
  await writeFileAtomic(destination, JSON.stringify(compiled.registry, null, 2) + "\n");
  io.stdout(
    `compiled ${source} → ${destination} (version ${compiled.registry.version}, ` +
      `${compiled.registry.packages.length} packages)\n`,
  );
  return 0;
}
