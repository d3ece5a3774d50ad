/**
 * `deno task install`: installs the two programs as global commands with
 * `deno install -g` into `$DENO_INSTALL_ROOT/bin` (default `~/.deno/bin`):
 * `policyd` (the server, with `--unstable-cron` for the CVE scanner schedule)
 * runs this checkout's sources, so `git pull` updates it; `policy` (the
 * client) runs the bundle `tools/bundle_client.ts` builds into
 * `dist/policy/` first (it starts on every commit and agent command, and the
 * bundle starts faster: docs/performance.md), so after a `git pull` run the
 * task again. Both need `deno` on the PATH.
 *
 * Usage: `deno run -A tools/install.ts`
 *
 * @module
 */
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLE_ENTRY, bundleClient, DEFAULT_OUT_DIR } from "./bundle_client.ts";

/** One command to install. */
export interface InstallTarget {
  name: "policyd" | "policy";
  /** The script, relative to the repository. */
  entry: string;
  /** Permission and feature flags, the same as the `deno task` entries use. */
  flags: string[];
  /** Whether the script is the client bundle, built first and run without configuration. */
  bundled: boolean;
}

/** The commands of the project. */
export const INSTALL_TARGETS: readonly InstallTarget[] = [
  {
    name: "policyd",
    entry: "cli/policyd.ts",
    flags: ["--allow-all", "--unstable-cron"],
    bundled: false,
  },
  {
    name: "policy",
    entry: join(DEFAULT_OUT_DIR, BUNDLE_ENTRY),
    flags: ["--allow-all"],
    bundled: true,
  },
];

/** The repository root (this file lives in `tools/`). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The `deno install` arguments of one command (`-f` replaces an earlier installation). */
export function installArgs(target: InstallTarget, root = ROOT): string[] {
  return [
    "install",
    "--global",
    "--force",
    ...target.flags,
    ...(target.bundled ? ["--no-config"] : ["--config", join(root, "deno.json")]),
    "--name",
    target.name,
    join(root, target.entry),
  ];
}

/**
 * Where `deno install -g` puts the commands, as Deno decides it: the root
 * (`DENO_INSTALL_ROOT`, else `~/.deno`) made absolute, with `bin` appended
 * unless its last component already is `bin` (`/x/bin` → `/x/bin`, not
 * `/x/bin/bin`).
 *
 * @example
 * ```ts
 * installBinDir((n) => ({ DENO_INSTALL_ROOT: "/opt/tools/bin" })[n]); // "/opt/tools/bin"
 * installBinDir((n) => ({ DENO_INSTALL_ROOT: "/opt/tools" })[n]); // "/opt/tools/bin"
 * ```
 */
export function installBinDir(env: (name: string) => string | undefined): string {
  const root = resolve(
    env("DENO_INSTALL_ROOT") || join(env("HOME") ?? env("USERPROFILE") ?? ".", ".deno"),
  );
  return basename(root) === "bin" ? root : join(root, "bin");
}

function onPath(dir: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(delimiter).includes(dir);
}

function denoOnPath(): boolean {
  return (Deno.env.get("PATH") ?? "").split(delimiter).some((dir) => {
    try {
      return Deno.statSync(join(dir, Deno.build.os === "windows" ? "deno.exe" : "deno")).isFile;
    } catch {
      return false;
    }
  });
}

async function main(): Promise<number> {
  try {
    await bundleClient();
  } catch (error) {
    console.error(`install: building the client bundle failed: ${(error as Error).message}`);
    return 1;
  }
  for (const target of INSTALL_TARGETS) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: installArgs(target),
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (!output.success) {
      const reason = new TextDecoder().decode(output.stderr).trim().split("\n").at(-1);
      console.error(`install: deno install of ${target.name} failed: ${reason}`);
      return 1;
    }
  }
  const bin = installBinDir((name) => Deno.env.get(name));
  console.error(`install: installed policyd and policy in ${bin}`);
  console.error(
    `install: policy runs the bundle built in ${join(ROOT, DEFAULT_OUT_DIR)}; ` +
      "run `deno task install` again after `git pull`",
  );
  if (!onPath(bin)) console.error(`install: add it to your PATH: export PATH="${bin}:$PATH"`);
  if (!denoOnPath()) {
    console.error(
      `install: the commands start \`deno\` from the PATH, and none is there: ` +
        `install Deno ${Deno.version.deno} (npm install -g deno@${Deno.version.deno}, or https://deno.com), ` +
        `or add ${dirname(Deno.execPath())} to PATH`,
    );
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
