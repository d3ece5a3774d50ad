/**
 * The evaluation service: gathers facts through the lookup interfaces,
 * lets the pure core decide, and commits one audit row per evaluation
 * before returning (SPEC §6.1 rule 5).
 *
 * @module
 */
import { factsVerdict, registryVerdict } from "../core/evaluate.ts";
import { decisionStableUntil } from "../core/facts_verdict.ts";
import { isShared, share } from "../core/decision_cache.ts";
import {
  combineIndexes,
  createPopularIndex,
  EMPTY_POPULAR_INDEX,
  type PopularIndex,
} from "../core/popular_index.ts";
import type {
  Decision,
  Evaluation,
  EvaluationFacts,
  EvaluationRequest,
  RegistrySnapshot,
} from "../core/types.ts";
import type { LicenseSource, VulnerabilitySource } from "../lookups/types.ts";
import type { LiveRegistry } from "../registry/live.ts";
import { withDeadline } from "../lookups/deadline.ts";
import type { AuditStore, NewAuditRow } from "../store/types.ts";
import { evaluationOf } from "./evaluation_json.ts";

/** Who asked, from where (SPEC §7 "Context of every call"). */
export interface CallContext {
  project: string;
  requester: string;
  agent_model: string | null;
  agent_version: string | null;
  source: string;
}

/** Dependencies of the evaluation service. */
export interface EvaluationServiceDeps {
  registry: Pick<LiveRegistry, "current">;
  vulnerabilities: VulnerabilitySource;
  licenses: LicenseSource;
  audit: AuditStore;
  /** Clock of exception expiry and release age; default the system clock. */
  now?: () => Date;
  /** One lookup deadline for a whole batch (see `lookups/deadline.ts`); none when absent. */
  batchDeadlineMs?: number;
  /** The popular-project index of the typosquat rule; none (nothing popular) when absent. */
  popular?: { current(): PopularIndex };
}

/** Evaluates packages and records every decision. */
export interface EvaluationService {
  evaluate(request: EvaluationRequest, context: CallContext): Promise<Evaluation>;
  /** Evaluates many packages; all audit rows are committed in one transaction. */
  evaluateMany(requests: EvaluationRequest[], context: CallContext): Promise<Evaluation[]>;
}

const BATCH_CONCURRENCY = 16;

/** Most decisions remembered per registry snapshot; the memory starts over when full. */
const REMEMBERED_PER_SNAPSHOT = 10_000;

/** A decision and what it was decided from (see `createEvaluationService`). */
interface Remembered {
  facts: EvaluationFacts;
  popular: PopularIndex;
  decision: Decision;
  /** The decision holds until this time (ms): `decisionStableUntil`. */
  until: number;
}

/** Builds the audit row of a decision. */
export function auditRowOf(
  decision: Decision,
  snapshot: RegistrySnapshot,
  context: CallContext,
): NewAuditRow {
  return {
    package: decision.package,
    version: decision.version,
    license: decision.license,
    verdict: decision.verdict,
    project: context.project,
    requester: context.requester,
    agent_model: context.agent_model,
    agent_version: context.agent_version,
    source: context.source,
    denial_category: decision.denial_category,
    cve_ids: decision.cves.map((c) => c.id),
    max_cvss: decision.max_cvss,
    registry_status: decision.registry_status,
    registry_version: snapshot.registry.version,
    license_raw: decision.license_raw,
    reason: decision.reason,
    data: decision.data,
    exceptions_applied: decision.exceptions_applied,
    threats: decision.threats,
  };
}

/**
 * Creates the evaluation service.
 *
 * @example
 * ```ts
 * import type { LiveRegistry } from "../registry/live.ts";
 * import type { LicenseSource, VulnerabilitySource } from "../lookups/types.ts";
 * import type { Store } from "../store/types.ts";
 * declare const live: LiveRegistry, store: Store, context: CallContext;
 * declare const vulnerabilities: VulnerabilitySource, licenses: LicenseSource;
 * const service = createEvaluationService({ registry: live, vulnerabilities, licenses, audit: store.audit });
 * const evaluation = await service.evaluate({ name: "requests", version: null }, context);
 * ```
 */
export function createEvaluationService(deps: EvaluationServiceDeps): EvaluationService {
  const now = deps.now ?? (() => new Date());
  // The core is pure: the same request, snapshot and facts give the same
  // decision until its clock inputs change. Facts served from the in-process
  // cache are the same shared objects on every hit, so a repeated
  // evaluation reuses the decision instead of deciding again. Facts fetched
  // or read from Redis are new objects each time and are never remembered
  // (rule 4 of src/core/decision_cache.ts).
  const remembered = new WeakMap<RegistrySnapshot, Map<string, Remembered>>();
  // Popular = the registry's own packages plus the shipped/refreshed list, per snapshot.
  const indexes = new WeakMap<RegistrySnapshot, { base: PopularIndex; index: PopularIndex }>();
  const popularFor = (snapshot: RegistrySnapshot): PopularIndex => {
    const base = deps.popular?.current() ?? EMPTY_POPULAR_INDEX;
    const known = indexes.get(snapshot);
    if (known?.base === base) return known.index;
    const index = combineIndexes(createPopularIndex(snapshot.byName.keys()), base);
    indexes.set(snapshot, { base, index });
    return index;
  };
  const decideFromFacts = (
    request: EvaluationRequest,
    snapshot: RegistrySnapshot,
    facts: EvaluationFacts,
  ): Decision => {
    const at = now();
    const popular = popularFor(snapshot);
    const key = `${request.name}\u0000${request.version ?? ""}`;
    let memory = remembered.get(snapshot);
    const hit = memory?.get(key);
    if (
      hit && hit.facts.vulnerabilities === facts.vulnerabilities &&
      hit.facts.license === facts.license && hit.popular === popular &&
      at.getTime() < hit.until
    ) {
      return hit.decision;
    }
    const decision = factsVerdict(request, snapshot, facts, at, popular);
    if (!isShared(facts.vulnerabilities) || !isShared(facts.license)) return decision;
    if (!memory || memory.size >= REMEMBERED_PER_SNAPSHOT) {
      remembered.set(snapshot, memory = new Map());
    }
    memory.set(key, {
      facts,
      popular,
      decision: share(decision),
      until: decisionStableUntil(facts, at),
    });
    return decision;
  };
  async function decide(
    request: EvaluationRequest,
    snapshot: RegistrySnapshot,
    sources: Pick<EvaluationServiceDeps, "vulnerabilities" | "licenses"> = deps,
  ): Promise<Decision> {
    // The registry decides hard blocks on its own: no lookup is made for them.
    const byRegistry = registryVerdict(request, snapshot);
    if (byRegistry) return byRegistry;
    const [vulnerabilities, license] = await Promise.all([
      sources.vulnerabilities.query(request.name, request.version),
      sources.licenses.lookup(request.name, request.version),
    ]);
    return decideFromFacts(request, snapshot, { vulnerabilities, license });
  }

  return {
    async evaluate(request, context) {
      const snapshot = deps.registry.current();
      const decision = await decide(request, snapshot);
      const row = await deps.audit.insert(auditRowOf(decision, snapshot, context));
      return evaluationOf(decision, snapshot.registry.version, row.id);
    },
    async evaluateMany(requests, context) {
      const snapshot = deps.registry.current();
      const decisions: Decision[] = new Array(requests.length);
      const sources = deps.batchDeadlineMs === undefined
        ? deps
        : withDeadline(deps, AbortSignal.timeout(deps.batchDeadlineMs));
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const index = next++;
          decisions[index] = await decide(requests[index], snapshot, sources);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(BATCH_CONCURRENCY, requests.length) }, worker),
      );
      const rows = await deps.audit.insertMany(
        decisions.map((d) => auditRowOf(d, snapshot, context)),
      );
      return decisions.map((d, i) => evaluationOf(d, snapshot.registry.version, rows[i].id));
    },
  };
}
