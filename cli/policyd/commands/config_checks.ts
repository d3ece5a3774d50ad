/**
 * The pre-flight checks of `policyd check-config` (seed "check-config"):
 * each check is independent and yields one row `ok`, `warn` or `fail` with a
 * hint. Nothing here contacts the git host; the only network call is the
 * cache probe when `REDIS_URL` names a Redis server.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { parseCidrList } from "../../../src/auth/cidr.ts";
import { cacheKind, createCache } from "../../../src/cache/factory.ts";
import {
  DEFAULT_REGISTRY_PATH,
  type Environment,
  type Options,
  type Settings,
  type SettingsIssue,
  type SettingsReport,
  tryLoadSettings,
} from "../../../src/settings.ts";
import type { CacheOptions } from "../../../src/cache/settings.ts";
import { createLogger } from "../../../src/log/logger.ts";
import { redact } from "../../../src/log/redact.ts";
import { detectProposer } from "../../../src/proposers/select.ts";
import { validateRegistry } from "../../../src/registry/schema.ts";
import { isLive } from "../../../src/core/exceptions.ts";
import { postgresDatabaseCheck } from "../../../src/store/postgres_check.ts";
import { parseYaml, toYaml } from "../../../src/registry/yaml.ts";

/** Outcome of one check. */
export type CheckStatus = "ok" | "warn" | "fail";

/** One row of the report. */
export interface CheckRow {
  check: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it (empty when nothing). */
  hint: string;
}

const row = (check: string, status: CheckStatus, detail: string, hint = ""): CheckRow => ({
  check,
  status,
  detail,
  hint,
});

/** Issues the `auth` row reports (its rules); every other issue is the `settings` row's. */
const isAuthRule = (issue: SettingsIssue) => issue.rule === true && issue.area === "auth";

const describe = (issues: SettingsIssue[]) =>
  issues.map((i) => `Invalid setting ${i.variable}: ${i.message}`).join("; ");

/**
 * Runs the server's own settings schemas ({@link tryLoadSettings}): every
 * invalid variable is reported at once, and the other checks run on the
 * defaults in its place (checks stay independent).
 */
export function settingsCheck(report: SettingsReport): CheckRow {
  const issues = report.issues.filter((i) => !isAuthRule(i));
  if (issues.length === 0) return row("settings", "ok", "every variable parses");
  const names = [...new Set(issues.map((i) => i.variable))].join(", ");
  return row("settings", "fail", describe(issues), `fix or unset ${names} (see .env.example)`);
}

type PathKind = "file" | "directory" | "other" | "missing";

async function pathKind(path: string): Promise<PathKind> {
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
async function quickstartEnvFile(): Promise<string | null> {
  const path = ".policyd/quickstart.env";
  return (await pathKind(path)) === "file" ? path : null;
}

/** The registry file exists, or its directory can be created. */
export async function registryFileCheck(path: string): Promise<CheckRow> {
  let kind: PathKind;
  try {
    kind = await pathKind(path);
  } catch (error) {
    return row(
      "registry_file",
      "fail",
      `cannot inspect ${path}: ${(error as Error).message}`,
      "check permissions",
    );
  }
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

/** The YAML parses, validates, and survives a serialise → parse → validate round trip unchanged. */
export async function registryYamlCheck(
  path: string,
  now: Date = new Date(),
): Promise<CheckRow> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return row("registry_yaml", "warn", `skipped: ${path} does not exist`, "");
    }
    return row(
      "registry_yaml",
      "fail",
      `cannot read ${path}: ${(error as Error).message}`,
      "check permissions",
    );
  }
  const first = parseYaml(text);
  const validated = first.ok ? validateRegistry(first.value) : first;
  if (!validated.ok) {
    const errors = validated.errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join("; ");
    const more = validated.errors.length > 3 ? ` (+${validated.errors.length - 3} more)` : "";
    return row(
      "registry_yaml",
      "fail",
      `${path} is invalid: ${errors}${more}`,
      `policyd registry compile ${path} /tmp/registry.json lists every error`,
    );
  }
  const again = parseYaml(toYaml(validated.value));
  const revalidated = again.ok ? validateRegistry(again.value) : again;
  if (!revalidated.ok || JSON.stringify(revalidated.value) !== JSON.stringify(validated.value)) {
    return row(
      "registry_yaml",
      "fail",
      `${path} does not round-trip through the validator`,
      "report this as a bug",
    );
  }
  const doc = validated.value;
  const summary = `${path} is valid (${doc.packages.length} packages${
    doc.version ? `, version ${doc.version}` : ""
  })`;
  const expired = doc.exceptions.filter((e) => !isLive(e, now));
  if (expired.length) {
    const list = expired.map((e) => `${e.package} (expired ${e.expires})`).join(", ");
    return row(
      "registry_yaml",
      "warn",
      `${summary}; ${expired.length} exception(s) expired and ignored: ${list}`,
      "renew the expiry date or remove the exception",
    );
  }
  return row("registry_yaml", "ok", summary);
}

/** The audit database's directory is writable (SQLite also writes `-wal`/`-shm` beside it). */
export async function databaseCheck(path: string): Promise<CheckRow> {
  let kind: PathKind;
  try {
    kind = await pathKind(path);
  } catch (error) {
    return row(
      "database",
      "fail",
      `cannot inspect ${path}: ${(error as Error).message}`,
      "check permissions",
    );
  }
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

/** The cache backend answers (a failure only warns: the server then runs uncached). */
export async function cacheCheck(options: CacheOptions, timeoutMs = 2000): Promise<CheckRow> {
  const kind = cacheKind(options);
  if (kind === "memory") return row("cache", "ok", "embedded in-process cache (REDIS_URL unset)");
  if (kind === "none") return row("cache", "ok", "caching disabled (REDIS_URL=none)");
  const url = redact(options.redisUrl!);
  const cache = createCache(options, createLogger("error", () => {}), {
    redis: { connectTimeoutMs: Math.min(1000, timeoutMs), opTimeoutMs: 300 },
  });
  const key = `policyd:check-config:${crypto.randomUUID()}`;
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      await cache.set(key, 1, 5);
      if ((await cache.get<number>(key)) === 1) {
        return row("cache", "ok", `redis at ${url} answers`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await cache.close();
  }
  return row(
    "cache",
    "warn",
    `redis at ${url} did not answer within ${timeoutMs} ms; the server would run uncached until it does`,
    "start Redis, fix REDIS_URL, or unset it for the embedded cache",
  );
}

const PROPOSER_HINTS: Record<string, string> = {
  local_git:
    "every approved rule becomes a commit in the registry's repository; set REGISTRY_PROPOSER=local_file to skip git",
  github:
    "approvals open pull requests; check-config does not contact the git host, so verify GITHUB_TOKEN can push",
};

/**
 * The proposer auto-detects to local_file (log_only is fine; anything else
 * warns). Uses the server's own detection, which never contacts the git host.
 */
export async function proposerCheck(
  options: Pick<Options, "proposers" | "registry">,
): Promise<CheckRow> {
  const { kind: name, reason } = await detectProposer(options.proposers, options.registry);
  const detail = `${name} (${reason})`;
  if (name === "local_file") return row("proposer", "ok", detail);
  if (name === "log_only") {
    return row(
      "proposer",
      "ok",
      detail,
      "approved rules are only logged; set REGISTRY_PATH to a writable file for local_file",
    );
  }
  let hint = PROPOSER_HINTS[name] ?? "a custom proposer; check-config does not load it";
  if (name === "github" && !options.proposers.githubToken) {
    hint = "GITHUB_TOKEN is unset: the github proposer cannot open pull requests";
  }
  return row("proposer", "warn", detail, hint);
}

/** Whether a bind address only accepts local connections. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (bare.toLowerCase() === "localhost") return true;
  return parseCidrList("127.0.0.0/8, ::1/128").contains(bare);
}

const AUTH_HINTS: Record<string, string> = {
  TRUSTED_PROXIES:
    "list your proxy's address in TRUSTED_PROXIES as comma-separated CIDRs such as 10.0.0.0/8",
  AUTH_VERIFY_URL: "set AUTH_VERIFY_URL to the verifier's http(s) URL",
};

/** Authentication is configured deliberately (the rules are the `auth` area's). */
export function authCheck(report: SettingsReport, env: Environment): CheckRow {
  const { settings, options } = report;
  const broken = report.issues.filter(isAuthRule);
  if (broken.length > 0) {
    const hint = [...new Set(broken.map((i) => AUTH_HINTS[i.variable] ?? `fix ${i.variable}`))];
    return row("auth", "fail", describe(broken), hint.join("; "));
  }
  const auth = options.auth;
  if (!auth.enabled) {
    if (env.AUTH_BACKEND) {
      return row(
        "auth",
        "warn",
        `AUTH_BACKEND=${env.AUTH_BACKEND} is ignored: AUTH_ENABLED is false (anonymous mode)`,
        "set AUTH_ENABLED=true for org mode, or unset AUTH_BACKEND",
      );
    }
    return isLoopback(settings.POLICY_HOST)
      ? row("auth", "ok", `anonymous single-user mode on loopback ${settings.POLICY_HOST}`)
      : row(
        "auth",
        "warn",
        `anonymous mode on non-loopback ${settings.POLICY_HOST}: anyone who reaches the port acts as operator`,
        "bind POLICY_HOST=127.0.0.1, or set AUTH_ENABLED=true behind an authenticating proxy",
      );
  }
  switch (auth.backend) {
    case "header":
      return row("auth", "ok", `header backend trusting ${auth.trustedProxies.blocks.join(", ")}`);
    case "webhook":
      return row("auth", "ok", `webhook backend verifying at ${redact(auth.verifyUrl)}`);
    case "apikey":
      return row(
        "auth",
        "warn",
        "apikey backend is a placeholder: every authenticated request answers 501",
        "use header or webhook",
      );
    case "module":
      return row("auth", "ok", `custom backend ${auth.specifier} (not loaded by check-config)`);
  }
}

/** Runs every check and returns the rows in a fixed order. */
export async function runChecks(env: Environment): Promise<CheckRow[]> {
  const report = tryLoadSettings(env);
  const settings = report.settings;
  const registry = settings.REGISTRY_PATH ?? DEFAULT_REGISTRY_PATH;
  const [registryFile, registryYaml, database, cache, proposer, quickstartEnv] = await Promise.all([
    registryFileCheck(registry),
    registryYamlCheck(registry),
    settings.DATABASE_URL
      ? postgresDatabaseCheck(settings.DATABASE_URL)
      : databaseCheck(settings.POLICY_DB_PATH),
    cacheCheck(report.options.cache),
    proposerCheck(report.options),
    settings.REGISTRY_PATH ? null : quickstartEnvFile(),
  ]);
  return [
    settingsCheck(report),
    registryPathCheck(settings, quickstartEnv),
    registryFile,
    registryYaml,
    database,
    cache,
    proposer,
    authCheck(report, env),
  ];
}
