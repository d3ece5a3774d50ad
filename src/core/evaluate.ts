/**
 * The evaluation rules of SPEC §6.1 as pure functions over plain data:
 * {@link registryVerdict} (registry hard blocks, no facts needed) and
 * {@link factsVerdict} (CVEs, licenses, missing data, release age, outcome).
 * {@link evaluate} composes the two for callers that already hold the facts.
 *
 * @module
 */
import { registryVerdict } from "./registry_verdict.ts";
import { factsVerdict } from "./facts_verdict.ts";
import type { Decision, EvaluationFacts, EvaluationRequest, RegistrySnapshot } from "./types.ts";

export { registryVerdict } from "./registry_verdict.ts";
export { factsVerdict, vulnerabilitiesInScope } from "./facts_verdict.ts";

/**
 * Decides a verdict for one package: the registry's verdict when it has one,
 * else the verdict from the facts.
 *
 * @example
 * ```ts
 * import { evaluate } from "./evaluate.ts";
 * import type { RegistrySnapshot } from "./types.ts";
 * declare const snapshot: RegistrySnapshot; // pycrypto is banned in it
 * const d = evaluate({ name: "pycrypto", version: null }, snapshot, { vulnerabilities: null, license: null });
 * d.verdict; // "DENIED"
 * ```
 */
export function evaluate(
  request: EvaluationRequest,
  snapshot: RegistrySnapshot,
  facts: EvaluationFacts,
  now: Date = new Date(),
): Decision {
  return registryVerdict(request, snapshot) ?? factsVerdict(request, snapshot, facts, now);
}
