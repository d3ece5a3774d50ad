/**
 * The evaluation query of a requirement (issue 27 point 7): an exact pin is
 * sent as `version`; a PEP 440 range is sent with the name (`urllib3<2`) so
 * the server judges it at the newest release it admits; any other form
 * (Poetry's `^1.2`, a wildcard-free bare version) keeps the version
 * `pinnedVersion` chooses, as before.
 *
 * @module
 */

import { validRange } from "@renovatebot/pep440";
import { parsePipRequirementsLine } from "pip-requirements-js";
import { pinnedVersion } from "./pyproject.ts";

/** One package to evaluate (the shape of `ApiClient.evaluateBatch`'s items). */
export interface RangeQuery {
  package: string;
  version: string | null;
}

/** The version specifier set of a requirement (`>=1,<2`), or null when it has none. */
export function specifierOf(spec: string): string | null {
  const line = /^\s*[<>=!~]/.test(spec) ? `x${spec.trim()}` : spec;
  try {
    const req = parsePipRequirementsLine(line);
    if (req?.type !== "ProjectName" || !req.versionSpec?.length) return null;
    return req.versionSpec.map((v) => `${v.operator}${v.version ?? ""}`).join(",");
  } catch {
    return null;
  }
}

/**
 * The query for package `name` required as `spec` (a PEP 508 line or a bare
 * constraint). `exact` overrides: an already known exact version.
 */
export function rangeQuery(name: string, spec: string | null, exact?: string | null): RangeQuery {
  if (exact) return { package: name, version: exact };
  if (!spec) return { package: name, version: null };
  const range = specifierOf(spec);
  const single = range !== null && /^(===?)[^,*]+$/.test(range);
  if (range !== null && !single && validRange(range)) {
    return { package: `${name}${range}`, version: null };
  }
  return { package: name, version: pinnedVersion(spec) };
}

/** The version of `spec` when it pins exactly one (`name==1.2`), else `known` if given, else null. */
export function exactVersion(spec: string, known: string | null): string | null {
  const range = specifierOf(spec);
  if (range !== null) {
    const m = /^===?([^,*]+)$/.exec(range);
    return m ? m[1] : null;
  }
  return known;
}
