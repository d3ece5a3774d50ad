/**
 * The checks of `policyd check-config` on the services the server uses: the
 * cache backend answers, the proposer is the one intended.
 *
 * @module
 */
import { cacheKind, createCache } from "../../../src/cache/factory.ts";
import type { CacheOptions } from "../../../src/cache/settings.ts";
import { createLogger } from "../../../src/log/logger.ts";
import { redact } from "../../../src/log/redact.ts";
import { detectProposer } from "../../../src/proposers/select.ts";
import type { Options } from "../../../src/settings.ts";
import { type CheckRow, row } from "./check_row.ts";

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
