/**
 * The live registry: one immutable snapshot reference swapped atomically by
 * one reload routine, shared by the webhook, `POST /registry/reload` and the
 * mtime poller (SPEC §5).
 *
 * @module
 */
import type { RegistrySnapshot } from "../core/types.ts";
import type { Logger } from "../log/logger.ts";
import { compileRegistry, createSnapshot } from "./compile.ts";
import type { ValidationError } from "./schema.ts";

/** Outcome of a reload (seed "ReloadResult"). */
export interface ReloadResult {
  ok: boolean;
  previous_version?: string;
  new_version?: string;
  package_count: number;
  added_packages: number;
  approved_requests: number;
  detail: string;
  errors?: ValidationError[];
}

/** Called after a swap with the new snapshot; returns how many approval requests it approved. */
export type AfterSwap = (next: RegistrySnapshot, previous: RegistrySnapshot) => Promise<number>;

/** Dependencies of the live registry. */
export interface LiveRegistryOptions {
  path: string;
  initial: RegistrySnapshot;
  log: Logger;
  afterSwap?: AfterSwap;
  readText?: (path: string) => Promise<string>;
  now?: () => Date;
}

/** The live registry. */
export interface LiveRegistry {
  /** The snapshot to use for the next evaluation. */
  current(): RegistrySnapshot;
  /** Re-reads the file, validates and swaps; concurrent calls run one after another. */
  reload(): Promise<ReloadResult>;
  /** The path the registry is read from. */
  readonly path: string;
}

/**
 * Creates the live registry around an initial snapshot.
 *
 * @example
 * ```ts
 * import { silentLogger } from "../log/logger.ts";
 * import { emptySnapshot } from "./compile.ts";
 * const initial = await emptySnapshot();
 * const live = createLiveRegistry({ path: "registry.yaml", initial, log: silentLogger });
 * await live.reload();
 * ```
 */
export function createLiveRegistry(options: LiveRegistryOptions): LiveRegistry {
  let snapshot = options.initial;
  let queue: Promise<unknown> = Promise.resolve();
  const readText = options.readText ?? ((p: string) => Deno.readTextFile(p));
  const now = options.now ?? (() => new Date());

  async function reloadOnce(): Promise<ReloadResult> {
    const previous = snapshot;
    const base = {
      previous_version: previous.registry.version,
      package_count: previous.registry.packages.length,
      added_packages: 0,
      approved_requests: 0,
    };
    let text: string;
    try {
      text = await readText(options.path);
    } catch (error) {
      const detail = `cannot read registry ${options.path}: ${(error as Error).message}`;
      options.log.warn("registry reload failed", { detail });
      return { ok: false, ...base, detail };
    }
    const compiled = await compileRegistry(text, now());
    if (!compiled.ok) {
      options.log.warn("registry reload rejected an invalid document", { errors: compiled.errors });
      return {
        ok: false,
        ...base,
        detail: `invalid registry, kept version ${previous.registry.version}`,
        errors: compiled.errors,
      };
    }
    if (compiled.contentHash === previous.contentHash) {
      return { ok: true, ...base, new_version: previous.registry.version, detail: "unchanged" };
    }
    const next = createSnapshot(compiled.registry, compiled.contentHash);
    snapshot = next;
    const added = next.registry.packages.filter((r) => !previous.byName.has(r.name)).length;
    let approved = 0;
    try {
      approved = options.afterSwap ? await options.afterSwap(next, previous) : 0;
    } catch (error) {
      options.log.error("approving pending requests after reload failed", {
        error: (error as Error).message,
      });
    }
    options.log.info("registry reloaded", {
      previous_version: previous.registry.version,
      new_version: next.registry.version,
      package_count: next.registry.packages.length,
    });
    return {
      ok: true,
      previous_version: previous.registry.version,
      new_version: next.registry.version,
      package_count: next.registry.packages.length,
      added_packages: added,
      approved_requests: approved,
      detail: "reloaded",
    };
  }

  return {
    path: options.path,
    current: () => snapshot,
    reload() {
      const run = queue.then(reloadOnce, reloadOnce);
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

/** A running poller; `stop()` ends it. */
export interface Poller {
  stop(): void;
}

/**
 * Polls the registry file's modification time and reloads when it advances.
 * `intervalSeconds` of 0 disables polling.
 */
export function startReloadPoller(
  live: LiveRegistry,
  intervalSeconds: number,
  log: Logger,
): Poller {
  if (intervalSeconds <= 0) return { stop() {} };
  let lastMtime: number | null = null;
  let busy = false;
  const mtimeOf = async () => {
    try {
      return (await Deno.stat(live.path)).mtime?.getTime() ?? null;
    } catch {
      return null;
    }
  };
  mtimeOf().then((m) => lastMtime ??= m);
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const mtime = await mtimeOf();
      if (mtime !== null && mtime !== lastMtime) {
        lastMtime = mtime;
        const result = await live.reload();
        if (result.detail !== "unchanged") log.info("registry poller reload", { ...result });
      }
    } finally {
      busy = false;
    }
  }, intervalSeconds * 1000);
  return { stop: () => clearInterval(timer) };
}
