/**
 * `.policy.toml` discovery and resolution (SPEC §11 table).
 *
 * The file is found by walking up from the working directory; its directory
 * is the project root. Without a file the working directory is the root and
 * every key takes its default. The input is validated with zod and a bad file
 * is a one-line `config` error naming the file and the key.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { DEFAULT_CLIENT_TIMEOUT_MS } from "../../src/api/evaluate.ts";
import { ClientError } from "./exit_codes.ts";
import { baseName, joinPath, parentDir } from "./os_path.ts";
import { projectName } from "./pyproject_toml.ts";

/** Name of the client configuration file. */
export const CONFIG_FILE = ".policy.toml";

/** Default server of single-user mode. */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8765";

const ConfigFileSchema = z.strictObject({
  project: z.string().min(1).optional(),
  server_url: z.url({ protocol: /^https?$/ }).optional(),
  mode: z.enum(["single-user", "org"]).optional(),
  fail_open: z.boolean().optional(),
  api_key_env_var: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
  auto_request_approval: z.boolean().optional(),
  timeout_seconds: z.number().positive().max(600).optional(),
});

/** The keys a `.policy.toml` may set, all optional. */
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

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
export function parseConfigFile(text: string, path: string): ConfigFile {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const first = String((error as Error).message).split("\n")[0];
    throw new ClientError("config", `Invalid ${path}: ${first}`);
  }
  const result = ConfigFileSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = issue.path.length
      ? issue.path.join(".")
      : (issue as { keys?: string[] }).keys?.join(", ");
    throw new ClientError(
      "config",
      `Invalid ${path}: ${key ? `key "${key}": ` : ""}${issue.message}`,
    );
  }
  return result.data;
}

/** Applies the SPEC §11 defaults to a parsed file. */
export function resolveConfig(
  file: ConfigFile,
  root: string,
  configPath: string | null,
  fs: ConfigFs = denoFs,
): ResolvedConfig {
  const mode = file.mode ?? "single-user";
  const singleUser = mode === "single-user";
  return {
    root,
    configPath,
    project: file.project ??
      projectName(fs.readTextFile(joinPath(root, "pyproject.toml")), baseName(root) || "default"),
    server_url: (file.server_url ?? DEFAULT_SERVER_URL).replace(/\/+$/, ""),
    mode,
    fail_open: file.fail_open ?? singleUser,
    api_key_env_var: file.api_key_env_var ?? "POLICY_API_KEY",
    auto_request_approval: file.auto_request_approval ?? singleUser,
    timeout_seconds: file.timeout_seconds ?? DEFAULT_CLIENT_TIMEOUT_MS / 1000,
  };
}

/** Finds, validates and resolves the configuration for a working directory. */
export function loadConfig(cwd: string, fs: ConfigFs = denoFs): ResolvedConfig {
  const path = findConfigFile(cwd, fs);
  if (path === null) return resolveConfig({}, cwd, null, fs);
  const file = parseConfigFile(fs.readTextFile(path) ?? "", path);
  return resolveConfig(file, parentDir(path), path, fs);
}
