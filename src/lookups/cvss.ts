/**
 * Scores of OSV records: CVSS base scores computed from `severity[]` vectors
 * with `ae-cvss-calculator`, the GHSA qualitative severity as a fallback.
 *
 * @module
 */
import * as calculatorModule from "ae-cvss-calculator";

/** One entry of an OSV `severity` list: the type and the vector string. */
export interface SeverityEntry {
  type: string;
  score: string;
}

interface Calculator {
  fromVector(vector: string): { calculateScores(): { base?: number } } | undefined;
}

// The package is UMD/CommonJS: under Deno its API sits on `default`.
const calculator: Calculator = ((calculatorModule as unknown as { default?: Calculator }).default ??
  calculatorModule) as Calculator;

/** Base metrics every vector of a version must set (to a value other than `X`). */
const REQUIRED_METRICS: Record<"2" | "3" | "4", string[]> = {
  "2": ["AV", "AC", "Au", "C", "I", "A"],
  "3": ["AV", "AC", "PR", "UI", "S", "C", "I", "A"],
  "4": ["AV", "AC", "AT", "PR", "UI", "VC", "VI", "VA", "SC", "SI", "SA"],
};

function cvssMajor(vector: string): "2" | "3" | "4" {
  if (vector.startsWith("CVSS:4.")) return "4";
  if (vector.startsWith("CVSS:3.")) return "3";
  return "2";
}

/**
 * The CVSS base score a vector defines, or null when the vector is malformed
 * or lacks a base metric (the calculator would silently score such a vector 0).
 *
 * @example
 * ```ts
 * baseScore("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"); // 9.8
 * baseScore("CVSS:3.1/AV:N"); // null
 * ```
 */
export function baseScore(vector: string): number | null {
  const trimmed = vector.trim();
  const metrics = new Map<string, string>();
  for (const part of trimmed.split("/")) {
    const [key, value] = part.split(":");
    if (key && value && key !== "CVSS") metrics.set(key, value);
  }
  const major = cvssMajor(trimmed);
  const required = REQUIRED_METRICS[major];
  if (required.some((m) => !metrics.has(m) || metrics.get(m) === "X")) return null;
  // CVSS 4.0 folds threat and environmental metrics into its one score: keep
  // only the base metrics so the result is CVSS-B, the base score.
  const scored = major === "4"
    ? `CVSS:4.0/${required.map((m) => `${m}:${metrics.get(m)}`).join("/")}`
    : trimmed;
  try {
    const base = calculator.fromVector(scored)?.calculateScores().base;
    return typeof base === "number" && Number.isFinite(base) ? base : null;
  } catch {
    return null;
  }
}

/** Scores of GHSA's `database_specific.severity` when a record has no usable vector. */
export const QUALITATIVE_SCORES: Readonly<Record<string, number>> = {
  CRITICAL: 9.0,
  HIGH: 7.0,
  MODERATE: 5.0,
  MEDIUM: 5.0,
  LOW: 2.0,
};

/** Vector types in order of preference: a record is scored from the best type it carries. */
const PREFERENCE = ["CVSS_V4", "CVSS_V3", "CVSS_V2"];

/**
 * The score of one OSV record: the highest base score among the vectors of the
 * most preferred CVSS type the record carries (V4, then V3, then V2); without a
 * usable vector, the qualitative `database_specific.severity`; else null.
 *
 * @example
 * ```ts
 * recordScore([{ type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:H/I:N/A:N" }], "MODERATE"); // 6.1
 * recordScore([], "HIGH"); // 7
 * ```
 */
export function recordScore(
  severity: readonly SeverityEntry[],
  qualitative: string | undefined,
): number | null {
  for (const type of PREFERENCE) {
    const scores = severity
      .filter((s) => s.type === type)
      .map((s) => baseScore(s.score))
      .filter((s): s is number => s !== null);
    if (scores.length > 0) return Math.max(...scores);
  }
  if (qualitative !== undefined) {
    return QUALITATIVE_SCORES[qualitative.trim().toUpperCase()] ?? null;
  }
  return null;
}
