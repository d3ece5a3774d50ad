/**
 * Builds the npm package of `@policyd/workflows` with `tsc` (the `typescript`
 * npm package): ESM JavaScript and `.d.ts` files for the four entry points,
 * and a `package.json` with the same exports and the package's own npm
 * dependencies. Deno APIs are kept (`Deno.test`, `Deno.Command`), so the
 * output runs under Deno (or a runtime that provides them).
 *
 * Usage: `deno run -A tools/build_npm.ts [--out DIR]` (default `npm/`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The `typescript` release the build compiles with. */
export const TYPESCRIPT_VERSION = "5.9.3";
/** Node's type definitions (for the `node:` built-ins the package imports). */
export const TYPES_NODE_VERSION = "24.10.1";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const ENTRIES = { ".": "mod", "./runner": "runner", "./serve": "serve", "./export": "export" };

interface PackageConfig {
  name: string;
  version: string;
  license: string;
  imports: Record<string, string>;
}

/** The npm version of an `npm:name@version` import of the package's `deno.json`. */
function npmVersion(config: PackageConfig, name: string): string {
  const spec = config.imports[name];
  const match = spec === undefined ? null : /^npm:(?:@[^/]+\/)?[^@]+@(.+)$/.exec(spec);
  if (!match) throw new Error(`deno.json maps "${name}" to ${spec}, not an npm version`);
  return match[1];
}

async function run(cwd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    throw new Error(`deno ${args.join(" ")} failed:\n${text(out.stdout)}${text(out.stderr)}`);
  }
}

async function copySources(into: string): Promise<void> {
  for (const entry of Object.values(ENTRIES)) {
    await Deno.copyFile(join(PACKAGE, `${entry}.ts`), join(into, `${entry}.ts`));
  }
  await Deno.mkdir(join(into, "src"));
  for await (const file of Deno.readDir(join(PACKAGE, "src"))) {
    if (file.isFile && file.name.endsWith(".ts") && !file.name.endsWith("_test.ts")) {
      await Deno.copyFile(join(PACKAGE, "src", file.name), join(into, "src", file.name));
    }
  }
}

/**
 * Builds into `outDir` (replaced) and returns the written `package.json`.
 *
 * @example
 * ```ts ignore
 * import { buildNpm } from "./build_npm.ts";
 * await buildNpm("npm");
 * ```
 */
export async function buildNpm(outDir: string): Promise<Record<string, unknown>> {
  const config = JSON.parse(
    await Deno.readTextFile(join(PACKAGE, "deno.json")),
  ) as PackageConfig;
  const dependencies = { zod: npmVersion(config, "zod"), yaml: npmVersion(config, "yaml") };
  const work = await Deno.makeTempDir({ prefix: "workflows-npm-" });
  try {
    const src = join(work, "src");
    await Deno.mkdir(src);
    await copySources(src);
    const types = await new Deno.Command(Deno.execPath(), { args: ["types"] }).output();
    if (!types.success) throw new Error("deno types failed");
    await Deno.writeFile(join(work, "deno.d.ts"), types.stdout);
    await Deno.writeTextFile(
      join(work, "package.json"),
      JSON.stringify({
        private: true,
        dependencies: {
          ...dependencies,
          typescript: TYPESCRIPT_VERSION,
          "@types/node": TYPES_NODE_VERSION,
        },
      }),
    );
    await run(work, ["install"]);
    await Deno.writeTextFile(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          allowImportingTsExtensions: true,
          rewriteRelativeImportExtensions: true,
          declaration: true,
          outDir: "out",
          rootDir: "src",
          strict: true,
          skipLibCheck: true,
          lib: ["ES2023"],
          types: ["node"],
        },
        files: [...Object.values(ENTRIES).map((e) => `src/${e}.ts`), "deno.d.ts"],
      }),
    );
    await run(work, ["run", "-A", `npm:typescript@${TYPESCRIPT_VERSION}/tsc`, "-p", "."]);
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
    await Deno.mkdir(dirname(outDir), { recursive: true });
    await Deno.rename(join(work, "out"), outDir).catch(async () => {
      // across file systems: copy instead
      await copyTree(join(work, "out"), outDir);
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
  const manifest = {
    name: config.name,
    version: config.version,
    license: config.license,
    type: "module",
    description: "Test-gated workflow documentation for any HTTP API (built from the Deno package)",
    exports: Object.fromEntries(
      Object.entries(ENTRIES).map(([key, entry]) => [
        key,
        { types: `./${entry}.d.ts`, default: `./${entry}.js` },
      ]),
    ),
    dependencies,
  };
  await Deno.writeTextFile(join(outDir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  for (const file of ["README.md", "LICENSE"]) {
    await Deno.copyFile(join(PACKAGE, file), join(outDir, file));
  }
  return manifest;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    if (entry.isDirectory) await copyTree(source, join(to, entry.name));
    else await Deno.copyFile(source, join(to, entry.name));
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string", default: join(PACKAGE, "npm") } },
  });
  const out = resolve(values.out);
  await buildNpm(out);
  console.error(`[build:npm] wrote ${relative(Deno.cwd(), out) || "."}`);
}
