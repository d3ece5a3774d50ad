/**
 * The JSON text of an evaluation, the body of `GET /evaluate`. Evaluations
 * of the same package and snapshot share one remembered, frozen decision
 * (`service.ts`); its serialisation is kept beside it, so an answer costs a
 * string concatenation instead of serialising a kilobyte of decision every
 * time (docs/performance.md). The text is byte for byte `JSON.stringify` of
 * the evaluation (rule 5 of `src/core/decision_cache.ts`).
 *
 * @module
 */
import { isShared } from "../core/decision_cache.ts";
import type { Decision, Evaluation } from "../core/types.ts";

/**
 * The remembered decision an evaluation was built from: a non-enumerable
 * property, so spreads and `JSON.stringify` never see it (a WeakMap keyed by
 * every answer made garbage collection measurably dearer).
 */
const DECISION = Symbol("decision");
/** `JSON.stringify(decision)` without its closing brace, per frozen decision. */
const heads = new WeakMap<Decision, string>();

/**
 * Builds an evaluation from `decision` (`{...decision, registry_version,
 * audit_id}`). When the decision is frozen (remembered and shared), the
 * evaluation is frozen too and noted, so {@link evaluationJson} can reuse
 * the decision's serialisation: nothing can change it afterwards.
 */
export function evaluationOf(
  decision: Decision,
  registryVersion: string,
  auditId: number,
): Evaluation {
  const evaluation = { ...decision, registry_version: registryVersion, audit_id: auditId };
  if (!isShared(decision)) return evaluation;
  Object.defineProperty(evaluation, DECISION, { value: decision });
  return Object.freeze(evaluation);
}

function headOf(decision: Decision): string | null {
  let head = heads.get(decision);
  if (head === undefined) {
    const text = JSON.stringify(decision);
    // The spread keeps a key's first position: a decision carrying either field would reorder.
    const ownFields = "registry_version" in decision || "audit_id" in decision;
    if (ownFields || text.length < 2) return null;
    heads.set(decision, head = text.slice(0, -1));
  }
  return head;
}

/**
 * `JSON.stringify(evaluation)`, reusing the remembered decision's text.
 *
 * @example
 * ```ts
 * import { evaluationJson, evaluationOf } from "./evaluation_json.ts";
 * import type { Decision } from "../core/types.ts";
 * declare const decision: Decision;
 * const evaluation = evaluationOf(Object.freeze(decision), "2026.11.21", 7);
 * evaluationJson(evaluation) === JSON.stringify(evaluation); // true
 * ```
 */
export function evaluationJson(evaluation: Evaluation): string {
  const decision = (evaluation as { [DECISION]?: Decision })[DECISION];
  const head = decision ? headOf(decision) : null;
  if (head === null) return JSON.stringify(evaluation);
  const separator = head.length > 1 ? "," : "";
  return `${head}${separator}"registry_version":${JSON.stringify(evaluation.registry_version)},` +
    `"audit_id":${JSON.stringify(evaluation.audit_id)}}`;
}
