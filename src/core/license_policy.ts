/**
 * Matching a normalised license (SPDX id or expression, or `UNKNOWN`)
 * against the registry's license lists (SPEC §6.1 rule 3, §15.11).
 *
 * @module
 */
import parseSpdx from "spdx-expression-parse";
import satisfies from "spdx-satisfies";
import type { Policies } from "./types.ts";

/** How a license fares against the policy lists. */
export type LicenseStanding = "allowed" | "denied" | "unknown" | "unlisted";

type SpdxNode =
  | { license: string; plus?: boolean; exception?: string }
  | { left: SpdxNode; conjunction: "and" | "or"; right: SpdxNode };

function matchesAny(expression: string, list: string[]): boolean {
  if (list.length === 0) return false;
  const lower = expression.toLowerCase();
  if (list.some((id) => id.toLowerCase() === lower)) return true;
  try {
    // spdx-satisfies understands ranges: GPL-3.0-only falls within GPL-2.0-or-later.
    return satisfies(expression, list);
  } catch {
    return false;
  }
}

function standingOfId(id: string, policies: Policies): LicenseStanding {
  if (matchesAny(id, policies.licenses.denied)) return "denied";
  if (matchesAny(id, policies.licenses.allowed)) return "allowed";
  return "unlisted";
}

const RANK: Record<LicenseStanding, number> = { allowed: 3, unlisted: 2, unknown: 1, denied: 0 };

function standingOfNode(node: SpdxNode, policies: Policies): LicenseStanding {
  if ("license" in node) {
    const id = node.plus ? `${node.license}+` : node.license;
    if (!node.exception) return standingOfId(id, policies);
    // An exception only adds permissions: fall back to the base license when unlisted.
    const withException = standingOfId(`${id} WITH ${node.exception}`, policies);
    return withException === "unlisted" ? standingOfId(id, policies) : withException;
  }
  const left = standingOfNode(node.left, policies);
  const right = standingOfNode(node.right, policies);
  // OR passes if any branch passes (the best branch counts); AND needs all (the worst counts).
  if (node.conjunction === "or") return RANK[left] >= RANK[right] ? left : right;
  return RANK[left] <= RANK[right] ? left : right;
}

/**
 * Classifies a license against the policies.
 *
 * @example
 * ```ts
 * import type { Policies } from "./types.ts";
 * declare const policies: Policies; // MIT allowed, GPL-3.0-only denied
 * licenseStanding("MIT OR GPL-3.0-only", policies); // "allowed"
 * licenseStanding("MIT AND GPL-3.0-only", policies); // "denied"
 * ```
 */
export function licenseStanding(license: string, policies: Policies): LicenseStanding {
  if (license === "UNKNOWN" || license.trim() === "") return "unknown";
  let tree: SpdxNode;
  try {
    tree = parseSpdx(license) as SpdxNode;
  } catch {
    // Not an SPDX expression: compare as a plain identifier.
    return standingOfId(license, policies);
  }
  return standingOfNode(tree, policies);
}
