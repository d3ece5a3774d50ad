/**
 * `.policy.toml` discovery and resolution (SPEC §11 table).
 *
 * The file is found by walking up from the working directory; its directory
 * is the project root. Without a file the working directory is the root and
 * every key takes its default. The input is validated against the zod schema
 * in `config_schema.ts` (through its generated validator: `validate.ts`) and a
 * bad file is a one-line `config` error naming the file and the key.
 *
 * @module
 */

import { DEFAULT_CLIENT_TIMEOUT_MS } from "../../src/api/evaluate_limits.ts";
import type { ConfigFile } from "./config_schema.ts";
import { ClientError } from "./exit_codes.ts";
import { parseFlatToml } from "./flat_toml.ts";
import { configFile } from "./generated/config_file.js";
import { lazyImport } from "./lazy_import.ts";
import { baseName, joinPath, parentDir } from "./os_path.ts";
import { validate } from "./validate.ts";

export type { ConfigFile };

/** Name of the client configuration file. */
export const CONFIG_FILE = ".policy.toml";

/** Default server of single-user mode. */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8765";

/** Client configuration with every default applied. */
export interface ResolvedConfig {
  /** Directory of `.policy.toml`, else the working directory. */
  root: string;
  /** Absolute path of the file read, or null when none was found. */
  configPath: string | null;
  project: string;
  server_url: string;
  mode: "single-user" | "org";
  fail_open: boolean;
  api_key_env_var: string;
  auto_request_approval: boolean;
  timeout_seconds: number;
}

/** Minimal file-system view the config needs (a fake in tests). */
export interface ConfigFs {
  readTextFile(path: string): string | null;
}

/** Real file-system adapter: null for a missing file. */
export const denoFs: ConfigFs = {
  readTextFile(path) {
    try {
      return Deno.readTextFileSync(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory) {
        return null;
      }
      throw error;
    }
  },
};

/** Walks up from `start` to the first directory holding `.policy.toml`. */
export function findConfigFile(start: string, fs: ConfigFs = denoFs): string | null {
  let dir = start;
  for (;;) {
    const candidate = joinPath(dir, CONFIG_FILE);
    if (fs.readTextFile(candidate) !== null) return candidate;
    const parent = parentDir(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Validates `.policy.toml` text; errors are one line naming the file and key. */
export async function parseConfigFile(text: string, path: string): Promise<ConfigFile> {
  let raw: unknown = parseFlatToml(text);
  try {
    raw ??= (await lazyImport<typeof import("smol-toml")>("smol-toml")).parse(text);
  } catch (error) {
    const first = String((error as Error).message).split("\n")[0];
    throw new ClientError("config", `Invalid ${path}: ${first}`);
  }
  const result = await validate(
    configFile,
    raw,
    async () =>
      (await lazyImport<typeof import("./config_schema.ts")>(
        new URL("./config_schema.ts", import.meta.url),
      )).ConfigFileSchema,
  );
  if (result.ok) return result.value;
  const key = result.key ? `key "${result.key}": ` : "";
  throw new ClientError("config", `Invalid ${path}: ${key}${result.message}`);
}

/**
 * The project name of `root` when `.policy.toml` gives none: `pyproject.toml`'s,
 * else the directory name. The TOML parser is loaded only for this.
 */
async function defaultProject(root: string, fs: ConfigFs): Promise<string> {
  const fallback = baseName(root) || "default";
  const text = fs.readTextFile(joinPath(root, "pyproject.toml"));
  if (text === null) return fallback;
  const { projectName } = await lazyImport<typeof import("./pyproject_toml.ts")>(
    new URL("./pyproject_toml.ts", import.meta.url),
  );
  return projectName(text, fallback);
}

/** Applies the SPEC §11 defaults to a parsed file. */
export async function resolveConfig(
  file: ConfigFile,
  root: string,
  configPath: string | null,
  fs: ConfigFs = denoFs,
): Promise<ResolvedConfig> {
  const mode = file.mode ?? "single-user";
  const singleUser = mode === "single-user";
  return {
    root,
    configPath,
    project: file.project ?? await defaultProject(root, fs),
    server_url: (file.server_url ?? DEFAULT_SERVER_URL).replace(/\/+$/, ""),
    mode,
    fail_open: file.fail_open ?? singleUser,
    api_key_env_var: file.api_key_env_var ?? "POLICY_API_KEY",
    auto_request_approval: file.auto_request_approval ?? singleUser,
    timeout_seconds: file.timeout_seconds ?? DEFAULT_CLIENT_TIMEOUT_MS / 1000,
  };
}

/** Finds, validates and resolves the configuration for a working directory. */
export async function loadConfig(cwd: string, fs: ConfigFs = denoFs): Promise<ResolvedConfig> {
  const path = findConfigFile(cwd, fs);
  if (path === null) return resolveConfig({}, cwd, null, fs);
  const file = await parseConfigFile(fs.readTextFile(path) ?? "", path);
  return resolveConfig(file, parentDir(path), path, fs);
}
