/**
 * The checks of `policyd check-config` on paths: the registry file and the
 * audit database can be read or created where the settings put them.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { DEFAULT_REGISTRY_PATH, type Settings } from "../../../src/settings.ts";
import { type CheckRow, row } from "./check_row.ts";

/** What is at a path. */
export type PathKind = "file" | "directory" | "other" | "missing";

/** What is at `path` (`missing` also when an ancestor is a file). */
export async function pathKind(path: string): Promise<PathKind> {
  try {
    const info = await Deno.stat(path);
    return info.isFile ? "file" : info.isDirectory ? "directory" : "other";
  } catch (error) {
    // ENOTDIR: an ancestor is a file, so nothing exists at this path.
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return "missing";
    }
    throw error;
  }
}

/**
 * Whether a file could be created at `path`: its nearest existing ancestor is
 * a directory in which a probe file can be written (and is removed again).
 */
export async function canCreateIn(
  dir: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  let probeDir = resolve(dir);
  while (true) {
    let kind: PathKind;
    try {
      kind = await pathKind(probeDir);
    } catch (error) {
      return { ok: false, reason: `cannot inspect ${probeDir}: ${(error as Error).message}` };
    }
    if (kind === "directory") break;
    if (kind !== "missing") return { ok: false, reason: `${probeDir} is not a directory` };
    const parent = dirname(probeDir);
    if (parent === probeDir) return { ok: false, reason: "no existing ancestor directory" };
    probeDir = parent;
  }
  try {
    const probe = await Deno.makeTempFile({ dir: probeDir, prefix: ".policyd-check-" });
    await Deno.remove(probe);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `${probeDir} is not writable: ${(error as Error).message}` };
  }
}

/**
 * `REGISTRY_PATH` is set (§15.7: present and non-empty). When it is not and
 * `quickstartEnv` (the file a quickstart in this directory wrote) exists, the
 * hint says how to check the quickstart's settings instead.
 */
export function registryPathCheck(
  settings: Settings,
  quickstartEnv: string | null = null,
): CheckRow {
  return settings.REGISTRY_PATH
    ? row("registry_path", "ok", `REGISTRY_PATH=${settings.REGISTRY_PATH}`)
    : row(
      "registry_path",
      "warn",
      `REGISTRY_PATH is unset: the server reads ${DEFAULT_REGISTRY_PATH} and proposals are only logged`,
      quickstartEnv
        ? `quickstart's settings are in ${quickstartEnv}: run policyd check-config --env-file ${quickstartEnv}`
        : "set REGISTRY_PATH to the registry YAML (policyd init writes registry/registry.yaml)",
    );
}

/** The settings file of a quickstart run from the working directory, when there is one. */
export async function quickstartEnvFile(): Promise<string | null> {
  const path = ".policyd/quickstart.env";
  return (await pathKind(path)) === "file" ? path : null;
}

/** What is at `path`, or the failing row of `check` when it cannot be inspected. */
async function inspected(check: string, path: string): Promise<PathKind | CheckRow> {
  try {
    return await pathKind(path);
  } catch (error) {
    const detail = `cannot inspect ${path}: ${(error as Error).message}`;
    return row(check, "fail", detail, "check permissions");
  }
}

/** The registry file exists, or its directory can be created. */
export async function registryFileCheck(path: string): Promise<CheckRow> {
  const kind = await inspected("registry_file", path);
  if (typeof kind !== "string") return kind;
  if (kind === "file") return row("registry_file", "ok", `${path} exists`);
  if (kind !== "missing") {
    return row(
      "registry_file",
      "fail",
      `${path} is not a regular file`,
      "point REGISTRY_PATH at a YAML file",
    );
  }
  const creatable = await canCreateIn(dirname(path));
  return creatable.ok
    ? row(
      "registry_file",
      "warn",
      `${path} does not exist yet (can be created); the server starts with an empty registry`,
      "copy the example: policyd init, or policyd quickstart",
    )
    : row(
      "registry_file",
      "fail",
      `${path} does not exist and cannot be created: ${creatable.reason}`,
      "choose a writable REGISTRY_PATH",
    );
}

/** The audit database's directory is writable (SQLite also writes `-wal`/`-shm` beside it). */
export async function databaseCheck(path: string): Promise<CheckRow> {
  const kind = await inspected("database", path);
  if (typeof kind !== "string") return kind;
  if (kind !== "file" && kind !== "missing") {
    return row(
      "database",
      "fail",
      `${path} is not a regular file`,
      "point POLICY_DB_PATH at a file",
    );
  }
  const creatable = await canCreateIn(dirname(resolve(path)));
  if (!creatable.ok) {
    return row(
      "database",
      "fail",
      `cannot write the database ${path}: ${creatable.reason}`,
      "choose a writable POLICY_DB_PATH",
    );
  }
  return row(
    "database",
    "ok",
    `${path} ${kind === "file" ? "exists" : "will be created"}; its directory is writable`,
  );
}
