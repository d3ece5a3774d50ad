/**
 * Where alert events come from and how they reach the outbox: the routing
 * to the configured destinations, and the decorators the composition root
 * puts around the store so that an event is written in the same transaction
 * as its cause — a scanner alert row (`cve_alert`; a `DENIAL_MALICIOUS`
 * scanner row → `malicious_seen`), an approval request (`request_filed`,
 * collapsed per package: only the first request pending review alerts).
 * Events without a stored cause (`rule_changed`, upstream events, the
 * malicious watch) are written on their own.
 *
 * @module
 */
import type { RegistrySnapshot } from "../core/types.ts";
import type { Logger } from "../log/logger.ts";
import type {
  AuditRow,
  AuditStore,
  NewAuditRow,
  OutboxEntry,
  OutboxStore,
  Store,
} from "../store/types.ts";
import { accepts, type Destination } from "./destination.ts";
import {
  type AlertEvent,
  cveAlertEvent,
  maliciousSeenEvent,
  type ProjectUse,
  requestFiledEvent,
  ruleChangedEvents,
  type RuleValue,
} from "./events.ts";

/** How far back the audit log names the projects that used a package. */
export const USE_WINDOW_DAYS = 30;

/** The alerter. */
export interface Alerter {
  /** The outbox entries of an event: one per destination that takes it. */
  route(event: AlertEvent): OutboxEntry[];
  /** Writes events to the outbox (repeated keys are skipped) and nudges delivery. */
  emit(events: AlertEvent[]): Promise<number>;
  /** The audit store whose scanner alert rows carry their events in the same transaction. */
  audit(audit: AuditStore): AuditStore;
  /** The store whose approval requests carry their `request_filed` in the same transaction. */
  store<S extends Store>(store: S): S;
  /** `rule_changed` events of a registry swap. */
  ruleChanged(next: RegistrySnapshot, previous: RegistrySnapshot): Promise<number>;
  /** The projects and versions of a package in the audit log's last {@link USE_WINDOW_DAYS} days. */
  usesOf(pkg: string): Promise<ProjectUse[]>;
}

/** Dependencies of {@link createAlerter}. */
export interface AlerterDeps {
  destinations: readonly Destination[];
  outbox: OutboxStore;
  /** The audit log (the projects that used a package). */
  auditLog: Pick<AuditStore, "list">;
  log: Logger;
  /** Called after events were written (the delivery loop's nudge). */
  written?: () => void;
  now?: () => Date;
}

/** Advisories of a malicious scanner row (its `threats`, else its ids). */
function advisoriesOf(row: AuditRow): Array<{ id: string; summary: string | null }> {
  const listed = (row.threats ?? []).filter((t) => t.id).map((t) => ({
    id: t.id!,
    summary: t.detail ?? null,
  }));
  return listed.length ? listed : row.cve_ids.map((id) => ({ id, summary: null }));
}

const ruleMap = (snapshot: RegistrySnapshot) =>
  new Map<string, RuleValue>(
    [...snapshot.byName].map(([name, rule]) => [name, { ...rule } as RuleValue]),
  );

/** Creates the alerter. */
export function createAlerter(deps: AlerterDeps): Alerter {
  const now = deps.now ?? (() => new Date());

  const route = (event: AlertEvent): OutboxEntry[] =>
    deps.destinations.filter((d) => accepts(d.filter, event)).map((d) => ({
      ...event,
      destination: d.name,
    }));

  async function usesOf(pkg: string): Promise<ProjectUse[]> {
    const since = new Date(now().getTime() - USE_WINDOW_DAYS * 86_400_000).toISOString();
    const rows = await deps.auditLog.list({ package: pkg, since }, 5000);
    const byProject = new Map<string, ProjectUse>();
    for (const row of rows) {
      if (row.source === "scanner") continue;
      const use = byProject.get(row.project) ??
        { project: row.project, versions: [], last_seen: row.ts };
      if (row.version && !use.versions.includes(row.version)) use.versions.push(row.version);
      if (row.ts > use.last_seen) use.last_seen = row.ts;
      byProject.set(row.project, use);
    }
    return [...byProject.values()]
      .map((u) => ({ ...u, versions: u.versions.sort() }))
      .sort((a, b) => a.project.localeCompare(b.project));
  }

  const notify = (n: number) => {
    if (n > 0) deps.written?.();
    return n;
  };

  async function emit(events: AlertEvent[]): Promise<number> {
    const entries = events.flatMap(route);
    if (entries.length === 0) return 0;
    return notify(await deps.outbox.enqueue(entries));
  }

  return {
    route,
    usesOf,
    emit,
    audit(audit) {
      return {
        ...audit,
        insert: async (row: NewAuditRow) => {
          if (row.verdict !== "CVE_ALERT" || deps.destinations.length === 0) {
            return await audit.insert(row);
          }
          const malicious = row.denial_category === "DENIAL_MALICIOUS";
          const projects = malicious ? await usesOf(row.package) : [];
          let count = 0;
          const stored = await deps.outbox.insertAuditWith(row, (stored) => {
            const event = malicious
              ? maliciousSeenEvent({
                package: stored.package,
                advisories: advisoriesOf(stored),
                projects,
                occurred_at: stored.ts,
              })
              : cveAlertEvent({ ...stored, audit_id: stored.id });
            const entries = route(event);
            count = entries.length;
            return entries;
          });
          notify(count);
          return stored;
        },
      };
    },
    store(store) {
      if (deps.destinations.length === 0) return store;
      return {
        ...store,
        approvals: {
          ...store.approvals,
          create: async (request) => {
            let count = 0;
            const stored = await deps.outbox.createApprovalWith(request, (stored, before) => {
              const entries = before > 0 ? [] : route(requestFiledEvent(stored));
              count = entries.length;
              return entries;
            });
            notify(count);
            return stored;
          },
        },
      };
    },
    async ruleChanged(next, previous) {
      const events = ruleChangedEvents({
        before: ruleMap(previous),
        after: ruleMap(next),
        previous_version: previous.registry.version,
        new_version: next.registry.version,
        previous_hash: previous.contentHash,
        new_hash: next.contentHash,
        occurred_at: now().toISOString(),
      });
      try {
        return await emit(events);
      } catch (error) {
        deps.log.error("cannot write rule_changed alerts", { detail: (error as Error).message });
        return 0;
      }
    },
  };
}
