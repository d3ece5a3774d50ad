/**
 * License normalisation of PyPI metadata (SPEC §6.3): `license_expression`
 * (PEP 639) → `License ::` classifiers → `info.license` (short name, SPDX
 * expression, or a recognisable full text) → `UNKNOWN`, through the curated
 * table in `license_aliases.ts`. `spdx-correct` is consulted only after the
 * table, and only where its guess cannot pick a variant of an ambiguous family.
 *
 * @module
 */
import parseSpdx from "spdx-expression-parse";
import spdxCorrect from "spdx-correct";
import licenseIds from "spdx-license-ids/index.json" with { type: "json" };
import deprecatedIds from "spdx-license-ids/deprecated.json" with { type: "json" };
import {
  CLASSIFIER_ALIASES,
  GENERIC_CLASSIFIERS,
  LICENSE_TEXT_FINGERPRINTS,
  type LicenseAlias,
  PLACEHOLDER_LICENSES,
  SHORT_NAME_ALIASES,
} from "./license_aliases.ts";

/** The license value reported when none can be determined. */
export const UNKNOWN_LICENSE = "UNKNOWN";

/** The license fields of PyPI's `info` object. */
export interface LicenseMetadata {
  license_expression?: string | null;
  classifiers?: readonly string[] | null;
  license?: string | null;
}

/** A normalised license and the exact string it was taken from. */
export interface NormalizedLicense {
  /** SPDX expression, or `UNKNOWN`. */
  license: string;
  /** The expression, classifier or `license` field used; null when there was none. */
  license_raw: string | null;
}

type SpdxNode =
  | { license: string; plus?: boolean; exception?: string }
  | { left: SpdxNode; conjunction: "and" | "or"; right: SpdxNode };

const ALL_IDS = [...licenseIds, ...deprecatedIds] as string[];
const ID_BY_LOWER = new Map(ALL_IDS.map((id) => [id.toLowerCase(), id]));
/** Deprecated GNU ids that have `-only` / `-or-later` successors. */
const GNU_DEPRECATED = /^(A?GPL|LGPL|GFDL)-\d\.\d$/;

function serialize(node: SpdxNode, parent?: "and" | "or"): string {
  if ("license" in node) {
    let id = node.license;
    let plus = node.plus === true;
    if (GNU_DEPRECATED.test(id)) {
      id = `${id}-${plus ? "or-later" : "only"}`;
      plus = false;
    }
    return `${id}${plus ? "+" : ""}${node.exception ? ` WITH ${node.exception}` : ""}`;
  }
  const text = `${serialize(node.left, node.conjunction)} ${node.conjunction.toUpperCase()} ${
    serialize(node.right, node.conjunction)
  }`;
  return parent !== undefined && parent !== node.conjunction ? `(${text})` : text;
}

function tryParse(expression: string): SpdxNode | undefined {
  try {
    return parseSpdx(expression) as SpdxNode;
  } catch {
    return undefined;
  }
}

/**
 * Validates an SPDX expression and returns its canonical spelling: ids in
 * their registered letter case, operators upper-case, deprecated GNU ids
 * (`GPL-2.0`, `GPL-2.0+`) rewritten to `-only` / `-or-later`. Null when the
 * text is not an SPDX expression.
 *
 * @example
 * ```ts
 * canonicalSpdx("apache-2.0 and mit"); // "Apache-2.0 AND MIT"
 * canonicalSpdx("GPL-2.0+"); // "GPL-2.0-or-later"
 * canonicalSpdx("BSD"); // null
 * ```
 */
export function canonicalSpdx(expression: string): string | null {
  const text = expression.trim();
  if (text === "") return null;
  let ast = tryParse(text);
  if (ast === undefined) {
    const recased = text.replace(/[A-Za-z0-9][A-Za-z0-9.+-]*/g, (token) => {
      const lower = token.toLowerCase();
      if (lower === "and" || lower === "or" || lower === "with") return token.toUpperCase();
      const plus = lower.endsWith("+") ? "+" : "";
      const id = ID_BY_LOWER.get(plus ? lower.slice(0, -1) : lower);
      return id === undefined ? token : id + plus;
    });
    ast = tryParse(recased);
  }
  return ast === undefined ? null : serialize(ast);
}

function tableKey(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ").replace(/^["']|["'.]$/g, "").trim();
}

/** Only accept a spdx-correct guess that cannot be a wrong variant or version. */
function guardedCorrect(text: string): string | null {
  let guess: string | null;
  try {
    guess = spdxCorrect(text, { upgrade: true });
  } catch {
    return null;
  }
  if (!guess) return null;
  // Families PEP 639 calls ambiguous are decided by the table, never guessed.
  if (/^(BSD-|A?GPL-|LGPL-|GFDL-|AFL-|APSL-|Artistic-|ZPL-)/.test(guess)) return null;
  // The guessed version must appear in the text ("Eclipse Public License 2.0" is not EPL-1.0).
  const version = guess.match(/\d+(\.\d+)*/)?.[0];
  if (version !== undefined && !text.includes(version.replace(/\.0$/, ""))) return null;
  return canonicalSpdx(guess);
}

function lookupShortName(text: string): LicenseAlias | undefined {
  return SHORT_NAME_ALIASES.get(tableKey(text));
}

/**
 * Normalises one short license string (not a full text): the curated table,
 * then SPDX syntax in any letter case, then `A or B` / `A and B` compounds
 * whose parts all normalise, then a guarded `spdx-correct`. Null when nothing fits.
 *
 * @example
 * ```ts
 * normalizeShortLicense("MIT license"); // "MIT"
 * normalizeShortLicense("GPL"); // "GPL-2.0-or-later"
 * normalizeShortLicense("LGPL with exceptions or ZPL"); // null
 * ```
 */
export function normalizeShortLicense(text: string): string | null {
  const alias = lookupShortName(text);
  if (alias) return alias.spdx;
  const spdx = canonicalSpdx(text);
  if (spdx !== null) return spdx;
  const parts = text.split(/\s+(or|and)\s+/i);
  if (parts.length > 1) {
    const conjunctions = new Set(parts.filter((_, i) => i % 2 === 1).map((c) => c.toUpperCase()));
    const names = parts.filter((_, i) => i % 2 === 0).map((p) => normalizeShortLicense(p));
    if (conjunctions.size !== 1 || names.some((n) => n === null)) return null;
    const op = [...conjunctions][0];
    return canonicalSpdx(names.map((n) => `(${n})`).join(` ${op} `));
  }
  return guardedCorrect(text);
}

function isFullText(text: string): boolean {
  return text.includes("\n") || text.length > 100;
}

/** Normalises the `license` field: a short name or expression, or a full license text. */
function normalizeLicenseField(text: string): string | null {
  if (!isFullText(text)) return normalizeShortLicense(text);
  for (const { pattern, spdx } of LICENSE_TEXT_FINGERPRINTS) {
    if (pattern.test(text)) return spdx;
  }
  const firstLine = text.split("\n").find((line) => line.trim() !== "") ?? "";
  return isFullText(firstLine) ? null : lookupShortName(firstLine)?.spdx ?? null;
}

/** Maps the license classifiers; one license id, or undefined when absent or ambiguous. */
function fromClassifiers(
  classifiers: readonly string[],
): { raw: string; alias: LicenseAlias } | undefined {
  const specific = classifiers
    .filter((c) => c.startsWith("License ::"))
    .filter((c) => !GENERIC_CLASSIFIERS.has(tableKey(c.split("::").at(-1) ?? "")));
  // PEP 639: a parent classifier of another one may be dropped.
  const leaves = specific.filter((c) => !specific.some((o) => o !== c && o.startsWith(`${c} ::`)));
  const mapped = leaves.map((raw) => ({
    raw,
    alias: CLASSIFIER_ALIASES.get(tableKey(raw.split("::").at(-1) ?? "")),
  }));
  const ids = new Set(mapped.map((m) => m.alias?.spdx));
  // PEP 639: several different license classifiers are ambiguous (AND or OR?).
  if (mapped.length === 0 || ids.size !== 1 || ids.has(undefined)) return undefined;
  return mapped[0] as { raw: string; alias: LicenseAlias };
}

/**
 * Normalises the license metadata of a PyPI release (SPEC §6.3, §15.11, §15.20).
 *
 * @example
 * ```ts
 * normalizeLicense({ license: "", classifiers: ["License :: OSI Approved :: MIT License"] });
 * // { license: "MIT", license_raw: "License :: OSI Approved :: MIT License" }
 * normalizeLicense({ license: null, classifiers: [] }); // { license: "UNKNOWN", license_raw: null }
 * ```
 */
export function normalizeLicense(info: LicenseMetadata): NormalizedLicense {
  const expression = info.license_expression?.trim();
  if (expression) {
    const spdx = canonicalSpdx(expression);
    if (spdx !== null) return { license: spdx, license_raw: info.license_expression! };
  }
  const field = info.license ?? null;
  const usableField = field !== null && !PLACEHOLDER_LICENSES.has(tableKey(field)) ? field : null;
  const fieldLicense = usableField === null ? null : normalizeLicenseField(usableField);
  const classifier = fromClassifiers(info.classifiers ?? []);
  if (classifier) {
    const family = classifier.alias.family;
    // A documented default variant yields to a more specific member of its family.
    if (
      family !== undefined && fieldLicense !== null && fieldLicense !== classifier.alias.spdx &&
      fieldLicense.startsWith(family) && !/\s/.test(fieldLicense)
    ) {
      return { license: fieldLicense, license_raw: usableField };
    }
    return { license: classifier.alias.spdx, license_raw: classifier.raw };
  }
  if (fieldLicense !== null) return { license: fieldLicense, license_raw: usableField };
  if (expression) return { license: UNKNOWN_LICENSE, license_raw: info.license_expression! };
  if (usableField !== null) return { license: UNKNOWN_LICENSE, license_raw: usableField };
  return { license: UNKNOWN_LICENSE, license_raw: null };
}
