/**
 * One registry across instances: the instance that reloads announces it, the
 * others follow. Followers first bring their copy of the source up to date
 * (`sync`: the github proposer pulls the default branch; a registry file on a
 * shared volume needs nothing), then run the same reload routine, which
 * reads the file, validates and swaps.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import type { LiveRegistry } from "../registry/live.ts";
import type { Coordination } from "./coordination.ts";

/**
 * Wraps a live registry so that every reload that changed the snapshot is
 * announced to the other instances. Pass the wrapper to everything that
 * reloads (proposers, webhook, `POST /registry/reload`, the poller).
 *
 * @example
 * ```ts ignore
 * // ignore: needs a live registry and a coordination
 * const registry = announcingRegistry(live, coordination, log);
 * await registry.reload(); // the other instances reload within a moment
 * ```
 */
export function announcingRegistry(
  live: LiveRegistry,
  coordination: Pick<Coordination, "announceReload">,
  log: Logger,
): LiveRegistry {
  return {
    path: live.path,
    current: () => live.current(),
    async reload() {
      const result = await live.reload();
      if (result.ok && result.detail === "reloaded" && result.new_version) {
        await coordination.announceReload(result.new_version).catch((error) =>
          log.warn("cannot announce the registry reload", { detail: (error as Error).message })
        );
      }
      return result;
    },
  };
}

/** Brings this instance's copy of the registry source up to date before a followed reload. */
export type SyncSource = () => Promise<{ ok: boolean; detail: string }>;

/**
 * Reloads `live` (the unwrapped registry: a followed reload is not announced
 * again) whenever another instance announces a reload. Announcements that
 * arrive while one is being followed collapse into one more reload.
 */
export async function followReloads(
  live: LiveRegistry,
  coordination: Pick<Coordination, "onReload">,
  sync: SyncSource | null,
  log: Logger,
): Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const follow = async (): Promise<void> => {
    do {
      again = false;
      if (sync) {
        const synced = await sync().catch((error) => ({
          ok: false,
          detail: (error as Error).message,
        }));
        if (!synced.ok) {
          log.error("cannot update the registry source for a followed reload", {
            detail: synced.detail,
          });
        }
      }
      const result = await live.reload();
      log.info("followed a registry reload of another instance", {
        ok: result.ok,
        detail: result.detail,
        new_version: result.new_version,
      });
    } while (again);
  };
  await coordination.onReload((announcement) => {
    log.debug("another instance reloaded the registry", { ...announcement });
    if (running) {
      again = true;
      return;
    }
    running = follow().finally(() => running = null);
  });
}
