/**
 * Parsing the `package` parameter of an evaluation: a PEP 508 name,
 * optionally with extras and an exact pin (`name==1.2`, `name===1.2`),
 * plus an optional separate `version`.
 *
 * @module
 */
import { parsePipRequirementsLine } from "pip-requirements-js";
import { valid } from "@renovatebot/pep440";
import {
  isValidName,
  MAX_PACKAGE_SPEC_LENGTH,
  normalizeName,
  plainRequirement,
  SPEC_TOO_LONG_MESSAGE,
} from "../core/names.ts";
import type { EvaluationRequest } from "../core/types.ts";
import { isRange } from "./resolve_range.ts";

/**
 * Result of parsing: the request, or a message for a 400. With ranges allowed,
 * `range` holds a version specifier set (`<2`, `>=1.2,<2`) the caller resolves
 * to a version (`resolve_range.ts`); the request's `version` is then null.
 */
export type ParsedSpec = { ok: true; request: EvaluationRequest; range?: string } | {
  ok: false;
  path: string;
  message: string;
};

/**
 * Parses a package spec and optional version into an evaluation request.
 *
 * @example
 * ```ts
 * parsePackageSpec("Requests==2.31.0", undefined); // ok, { name: "requests", version: "2.31.0" }
 * ```
 */
export function parsePackageSpec(
  spec: string,
  version: string | undefined,
  options: { ranges?: boolean } = {},
): ParsedSpec {
  const text = spec.trim();
  if (text === "") return { ok: false, path: "package", message: "package name is required" };
  if (text.length > MAX_PACKAGE_SPEC_LENGTH) {
    return { ok: false, path: "package", message: SPEC_TOO_LONG_MESSAGE };
  }
  let name = text;
  let pinned: string | null = null;
  if (!isValidName(text)) {
    // The plain form (`name>=1.0,<2`) is read without the PEP 508 grammar, as that grammar reads it.
    const plain = plainRequirement(text);
    let parsed;
    try {
      parsed = plain
        ? { type: "ProjectName" as const, name: plain.name, versionSpec: plain.clauses }
        : parsePipRequirementsLine(text);
    } catch {
      parsed = null;
    }
    if (!parsed || parsed.type !== "ProjectName") {
      return {
        ok: false,
        path: "package",
        message: `"${
          text.slice(0, 80)
        }" is not a PEP 508 package name (expected e.g. requests or requests==2.31.0)`,
      };
    }
    if (!isValidName(parsed.name)) {
      return {
        ok: false,
        path: "package",
        message: `"${text.slice(0, 80)}" is not a PEP 508 package name`,
      };
    }
    name = parsed.name;
    const specs = parsed.versionSpec ?? [];
    const exact = specs.length === 1 && ["==", "==="].includes(specs[0].operator) &&
      !specs[0].version?.includes("*");
    if (options.ranges && specs.length && !exact) {
      const range = specs.map((s) => `${s.operator}${s.version ?? ""}`).join(",");
      if (!isRange(range)) {
        return { ok: false, path: "package", message: `"${range}" is not a PEP 440 version range` };
      }
      if (version?.trim()) {
        return {
          ok: false,
          path: "version",
          message: "pass either a range in package or a version, not both",
        };
      }
      return { ok: true, request: { name: normalizeName(name), version: null }, range };
    }
    if (specs.length > 1 || (specs.length === 1 && !["==", "==="].includes(specs[0].operator))) {
      return {
        ok: false,
        path: "package",
        message: "only an exact pin (==X) may follow the name; pass other versions in `version`",
      };
    }
    pinned = specs[0]?.version ?? null;
  }
  const requested = version?.trim() || null;
  if (pinned && requested && pinned !== requested) {
    return {
      ok: false,
      path: "version",
      message: `version ${requested} contradicts the pin ${pinned} in package`,
    };
  }
  const chosen = requested ?? pinned;
  if (chosen !== null && valid(chosen) === null) {
    return {
      ok: false,
      path: "version",
      message: `"${chosen.slice(0, 80)}" is not a PEP 440 version`,
    };
  }
  return { ok: true, request: { name: normalizeName(name), version: chosen } };
}
