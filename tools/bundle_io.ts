/**
 * The file-system and process side of the client bundle build
 * (`bundle_client.ts`): reading the sources, writing the rewritten copies,
 * running `deno bundle`, reading its output, and the checkout's commit.
 *
 * @module
 */
import { dirname, join, posix } from "node:path";
import { BundleError, type LazyImportPlan, rewriteLazyImports } from "./bundle_rewrite.ts";

/** The client's sources (path → text), without tests and fixtures. */
export function readSources(root: string, rel: string, into = new Map<string, string>()) {
  for (const entry of Deno.readDirSync(join(root, rel))) {
    const path = posix.join(rel, entry.name);
    if (entry.isDirectory) {
      if (entry.name !== "fixtures") readSources(root, path, into);
    } else if (entry.isFile && /\.(ts|tsx|js|json)$/.test(entry.name)) {
      if (!/_test\.tsx?$|_testing\.ts$/.test(entry.name)) {
        into.set(path, Deno.readTextFileSync(join(root, path)));
      }
    }
  }
  return into;
}

/** Writes `sources` under `dir`, each TypeScript file rewritten by `plan`, the build info set. */
export function writeSources(
  dir: string,
  sources: Map<string, string>,
  plan: LazyImportPlan,
  commit: string | null,
): void {
  const flag = "cli/policy/build_info.ts";
  for (const [path, text] of sources) {
    let next = /\.tsx?$/.test(path) ? rewriteLazyImports(text, path, plan) : text;
    if (path === flag) {
      const set = next.replace("BUNDLED: boolean = false", "BUNDLED: boolean = true")
        .replace(
          "BUILT_FROM: string | null = null",
          `BUILT_FROM: string | null = ${JSON.stringify(commit)}`,
        );
      if (set === next || (commit !== null && !set.includes(commit))) {
        throw new BundleError(`${path}: no BUNDLED or BUILT_FROM to set`);
      }
      next = set;
    }
    Deno.mkdirSync(join(dir, dirname(path)), { recursive: true });
    Deno.writeTextFileSync(join(dir, path), next);
  }
}

/**
 * Runs `deno bundle` with the project's configuration, code-split into a
 * directory or into one file; a failure is a BundleError.
 */
export async function denoBundle(
  root: string,
  entries: string[],
  output: { dir: string } | { file: string },
) {
  const ran = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--config",
      join(root, "deno.json"),
      "--platform",
      "deno",
      "--format",
      "esm",
      ...("dir" in output
        ? ["--code-splitting", "--outdir", output.dir]
        : ["--output", output.file]),
      ...entries,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!ran.success) {
    const reason = new TextDecoder().decode(ran.stderr).trim().split("\n").slice(0, 3);
    throw new BundleError(`deno bundle failed: ${reason.join(" ")}`);
  }
}

/** The commit the checkout at `root` is at (`git rev-parse HEAD`), null outside git. */
export async function headOf(root: string): Promise<string | null> {
  try {
    const out = await new Deno.Command("git", {
      args: ["rev-parse", "HEAD"],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).output();
    const head = new TextDecoder().decode(out.stdout).trim();
    return out.success && /^[0-9a-f]{40,64}$/.test(head) ? head : null;
  } catch {
    return null; // no git
  }
}

/** Every `.js` file under `dir` (path relative to it, with `/` → text). */
export function readOutput(dir: string, rel = "", into = new Map<string, string>()) {
  for (const entry of Deno.readDirSync(join(dir, rel))) {
    const path = posix.join(rel, entry.name);
    if (entry.isDirectory) readOutput(dir, path, into);
    else if (entry.name.endsWith(".js")) into.set(path, Deno.readTextFileSync(join(dir, path)));
  }
  return into;
}

/** Removes `path` (recursively) when it exists. */
export function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
