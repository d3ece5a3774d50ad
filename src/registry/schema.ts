/**
 * The one registry validator (SPEC §5): used by `policyd registry compile`,
 * the parse-yaml endpoint, reload and every proposer, so a document accepted
 * by one is accepted by all. A single rule validates on its own too.
 *
 * @module
 */
import { z } from "zod";
import { compare, valid, validRange } from "@renovatebot/pep440";
import { isValidName, normalizeName } from "../core/names.ts";
import { REGISTRY_STATUSES } from "../core/types.ts";

const pep440Version = z
  .string()
  .trim()
  .min(1)
  .refine((v) => valid(v) !== null, { message: "is not a valid PEP 440 version" });

const optionalText = z.string().trim().min(1).optional();

const packageName = z
  .string()
  .trim()
  .min(1, { message: "package name is required" })
  .refine(isValidName, { message: "is not a valid Python package name" });

/** One package rule as authored (name in any PEP 503 spelling). */
export const packageRuleSchema = z
  .object({
    name: packageName,
    status: z.enum(REGISTRY_STATUSES),
    reason: optionalText,
    replacement: optionalText,
    min_version: pep440Version.optional(),
    max_version: pep440Version.optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.min_version && rule.max_version && compare(rule.min_version, rule.max_version) > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["min_version"],
        message: `min_version ${rule.min_version} is greater than max_version ${rule.max_version}`,
      });
    }
    if (rule.status === "version-constrained" && !rule.min_version && !rule.max_version) {
      ctx.addIssue({
        code: "custom",
        path: ["status"],
        message: "version-constrained needs min_version or max_version",
      });
    }
  })
  .transform((rule) => ({ ...rule, name: normalizeName(rule.name) }));

const licenseId = z.string().trim().min(1);

/** Global policies with the defaults of SPEC §5. */
export const policiesSchema = z
  .object({
    cve_threshold: z.number().min(0).max(10).default(7.0),
    block_on_cve: z.boolean().default(true),
    unversioned_cve_scope: z.enum(["latest", "any"]).default("latest"),
    licenses: z
      .object({
        allowed: z.array(licenseId).default([]),
        denied: z.array(licenseId).default([]),
      })
      .strict()
      .default({ allowed: [], denied: [] }),
    unknown_license_policy: z.enum(["allow", "provisional", "deny"]).default("provisional"),
    on_missing_data: z.enum(["allow", "provisional", "deny"]).default("allow").describe(
      "what to do when a lookup the decision needs (OSV, PyPI) is unavailable",
    ),
    min_release_age_days: z.number().int().min(0).max(3650).default(0).describe(
      "releases uploaded fewer days ago are only provisionally allowed; 0 = off",
    ),
    typosquat: z.enum(["deny", "provisional", "off"]).default("deny").describe(
      "a look-alike of a popular project: deny (DENIAL_TYPOSQUAT), provisional (listed) or off",
    ),
    min_project_age_days: z.number().int().min(0).max(3650).default(14).describe(
      "projects first released on PyPI fewer days ago are denied (DENIAL_NEW_PROJECT); 0 = off",
    ),
  })
  .strict();

const isoDay = z
  .string({ message: "expires is required (YYYY-MM-DD)" })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date YYYY-MM-DD" })
  .refine((d) =>
    !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
    new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { message: "is not a real date" });

/** One exception as authored: waives named vulnerabilities and/or licenses until it expires. */
export const exceptionSchema = z
  .object({
    package: packageName,
    versions: z
      .string()
      .trim()
      .min(1)
      .refine((v) => validRange(v), { message: "is not a valid PEP 440 specifier" })
      .optional()
      .describe("PEP 440 specifier, e.g. `<2.32`; absent = every version"),
    vulnerabilities: z.array(z.string().trim().min(1)).min(1).optional().describe(
      "vulnerability ids or aliases (CVE-…, GHSA-…, PYSEC-…) waived",
    ),
    licenses: z.array(licenseId).min(1).optional().describe(
      "SPDX ids (or UNKNOWN) accepted for this package",
    ),
    reason: z.string({ message: "reason is required" }).trim().min(1, {
      message: "reason is required",
    }),
    expires: isoDay.describe("YYYY-MM-DD; the exception holds through this day (UTC)"),
    approved_by: optionalText,
  })
  .strict()
  .superRefine((e, ctx) => {
    if (!e.vulnerabilities && !e.licenses) {
      ctx.addIssue({
        code: "custom",
        path: ["vulnerabilities"],
        message: "an exception names vulnerabilities or licenses (or both)",
      });
    }
  })
  .transform((e) => ({ ...e, package: normalizeName(e.package) }));

/** A whole registry document as authored in YAML. */
export const registryDocumentSchema = z
  .object({
    version: z.union([z.string().trim().min(1), z.number().transform(String)]).optional(),
    policies: policiesSchema.default(policiesSchema.parse({})),
    packages: z.array(packageRuleSchema).default([]),
    exceptions: z.array(exceptionSchema).default([]),
  })
  .strict()
  .superRefine((doc, ctx) => {
    const seen = new Map<string, number>();
    doc.packages.forEach((rule, index) => {
      const first = seen.get(rule.name);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["packages", index, "name"],
          message: `duplicate package "${rule.name}" (also packages[${first}])`,
        });
      } else seen.set(rule.name, index);
    });
  });

/** A validated registry document (names normalised, defaults applied). */
export type RegistryDocument = z.infer<typeof registryDocumentSchema>;

/** A validated exception. */
export type ValidatedException = z.infer<typeof exceptionSchema>;

/** A validated single rule. */
export type ValidatedRule = z.infer<typeof packageRuleSchema>;

/** A validation error with a path such as `packages[3].status`. */
export interface ValidationError {
  path: string;
  message: string;
  /** 1-based line of the offending node in a YAML source, when known. */
  line?: number;
  /** 1-based column of the offending node in a YAML source, when known. */
  column?: number;
}

/** Formats a zod path as `packages[3].status`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "(root)";
}

function toErrors(error: z.ZodError): ValidationError[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** Result of validation: the value or path-qualified errors. */
export type Validated<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

/**
 * Validates a parsed registry document.
 *
 * @example
 * ```ts
 * const r = validateRegistry({ packages: [{ name: "Requests", status: "preferred" }] });
 * r.ok && r.value.packages[0].name; // "requests"
 * ```
 */
export function validateRegistry(input: unknown): Validated<RegistryDocument> {
  const parsed = registryDocumentSchema.safeParse(input ?? {});
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: toErrors(parsed.error) };
}

/** Validates one rule on its own. */
export function validateRule(input: unknown): Validated<ValidatedRule> {
  const parsed = packageRuleSchema.safeParse(input);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: toErrors(parsed.error) };
}
