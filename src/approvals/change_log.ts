/**
 * The registry change log (issue #31): one entry per rule a reload changed,
 * per proposal that did not apply at once (a pull request, a logged rule)
 * and per operator decision on an approval request. A reload attributes a
 * changed rule to the proposal that caused it (who, which proposer, which
 * entry it reverts); a reload nobody here proposed (a merged pull request,
 * a hand edit) is recorded as `reloaded`, with the pull request of the
 * matching `opened` entry when there is one.
 *
 * @module
 */
import { normalizeName } from "../core/names.ts";
import type { PackageRule, RegistrySnapshot } from "../core/types.ts";
import type { Logger } from "../log/logger.ts";
import type { ProposalResult } from "../proposers/types.ts";
import type {
  ChangedRule,
  ChangeStore,
  NewRegistryChange,
  RegistryChange,
} from "../store/types.ts";

/** Who is behind a proposal while it runs. */
export interface Attribution {
  actor: string;
  proposer: string;
  /** The entry a revert undoes. */
  reverts: number | null;
}

/** The change log's writer. */
export interface ChangeLog {
  /** The reload hook: one entry per rule that differs between the snapshots. */
  recordSwap(next: RegistrySnapshot, previous: RegistrySnapshot): Promise<void>;
  /** Runs `task` with changes of `name` attributed to `who` (reloads it causes included). */
  attributed<T>(name: string, who: Attribution, task: () => Promise<T>): Promise<T>;
  /** Records a proposal that did not change the live registry (opened, amended, logged). */
  recordProposal(entry: {
    name: string;
    before: ChangedRule | null;
    after: ChangedRule | null;
    result: ProposalResult;
    who: Attribution;
    version: string;
  }): Promise<void>;
  /** Records an operator's rejection or dismissal of a request. */
  recordDecision(entry: Omit<NewRegistryChange, "after" | "url" | "reverts">): Promise<void>;
}

/** A compiled rule as the change log stores it (no empty fields). */
export function changedRule(rule: PackageRule | undefined | null): ChangedRule | null {
  if (!rule) return null;
  const out: ChangedRule = { name: rule.name, status: rule.status };
  for (const key of ["reason", "replacement", "min_version", "max_version"] as const) {
    if (rule[key] !== undefined && rule[key] !== "") out[key] = rule[key];
  }
  return out;
}

const same = (a: ChangedRule | null, b: ChangedRule | null) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * Creates the change log over a store.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from "../store/sqlite.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * const store = openSqliteStore(":memory:");
 * const changes = createChangeLog({ store: store.changes, log });
 * await store.close();
 * ```
 */
export function createChangeLog(deps: { store: ChangeStore; log: Logger }): ChangeLog {
  const running = new Map<string, Attribution[]>();

  async function write(change: NewRegistryChange): Promise<void> {
    try {
      await deps.store.record(change);
    } catch (error) {
      deps.log.error("cannot record a registry change", {
        package: change.package,
        error: (error as Error).message,
      });
    }
  }

  /** The newest entry of a package, to skip a reload another instance already recorded. */
  async function recent(name: string): Promise<RegistryChange[]> {
    try {
      return await deps.store.list({ package: name }, 10);
    } catch {
      return [];
    }
  }

  return {
    async recordSwap(next, previous) {
      const names = new Set([...previous.byName.keys(), ...next.byName.keys()]);
      for (const name of [...names].sort()) {
        const before = changedRule(previous.byName.get(name));
        const after = changedRule(next.byName.get(name));
        if (same(before, after)) continue;
        const who = running.get(name)?.at(-1);
        const entries = await recent(name);
        const latest = entries[0];
        // Another instance following the same reload already wrote this change.
        const recorded = latest && (latest.kind === "applied" || latest.kind === "reloaded") &&
          same(latest.before, before) && same(latest.after, after) &&
          latest.registry_version === next.registry.version;
        if (!who && recorded) continue;
        const proposal = who
          ? undefined
          : entries.find((e) =>
            (e.kind === "opened" || e.kind === "amended") && same(e.after, after)
          );
        await write({
          package: name,
          kind: who ? "applied" : "reloaded",
          before,
          after,
          actor: who?.actor ?? proposal?.actor ?? null,
          proposer: who?.proposer ?? proposal?.proposer ?? null,
          previous_version: previous.registry.version,
          registry_version: next.registry.version,
          url: proposal?.url ?? null,
          reverts: who?.reverts ?? null,
          request_id: null,
          detail: who
            ? ""
            : proposal
            ? "the merged pull request was reloaded"
            : "the registry file changed and was reloaded",
        });
      }
    },
    async attributed(name, who, task) {
      const key = normalizeName(name.trim());
      const list = running.get(key) ?? [];
      list.push(who);
      running.set(key, list);
      try {
        return await task();
      } finally {
        list.splice(list.indexOf(who), 1);
        if (list.length === 0) running.delete(key);
      }
    },
    async recordProposal({ name, before, after, result, who, version }) {
      if (result.status !== "opened" && result.status !== "amended" && result.status !== "logged") {
        return;
      }
      await write({
        package: normalizeName(name.trim()),
        kind: result.status,
        before,
        after,
        actor: who.actor,
        proposer: who.proposer,
        previous_version: version,
        registry_version: version,
        url: result.url ?? null,
        reverts: who.reverts,
        request_id: null,
        detail: result.detail,
      });
    },
    async recordDecision(entry) {
      await write({ ...entry, after: entry.before, url: null, reverts: null });
    },
  };
}
