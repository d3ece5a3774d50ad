/**
 * Registry exceptions (issue 14): which ones hold for an evaluation, and
 * which findings they waive. An exception is live through its `expires` day
 * (UTC); it removes only the vulnerabilities and licenses it names.
 *
 * @module
 */
import { satisfies } from "@renovatebot/pep440";
import type { AppliedException, RegistryException, Vulnerability } from "./types.ts";

/** The UTC calendar day of a time, `YYYY-MM-DD`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Whether an exception still holds on `now`'s UTC day. */
export function isLive(exception: RegistryException, now: Date): boolean {
  return exception.expires >= utcDay(now);
}

/**
 * The live exceptions of a package that cover `version` (the evaluated
 * version, else the latest release). An exception limited to `versions`
 * does not cover an evaluation whose version is unknown.
 *
 * @example
 * ```ts
 * import { exceptionsFor } from "./exceptions.ts";
 * const list = [{ package: "requests", reason: "r", expires: "2099-01-01", vulnerabilities: ["CVE-1"] }];
 * exceptionsFor(list, "requests", "2.31.0", new Date()).length; // 1
 * ```
 */
export function exceptionsFor(
  exceptions: readonly RegistryException[],
  name: string,
  version: string | null,
  now: Date,
): RegistryException[] {
  return exceptions.filter((e) =>
    e.package === name && isLive(e, now) &&
    (e.versions === undefined || (version !== null && satisfies(version, e.versions)))
  );
}

/** Builds an applied-exception entry. */
function applied(
  exception: RegistryException,
  field: "vulnerabilities" | "licenses",
  ids: string[],
): AppliedException {
  return {
    package: exception.package,
    [field]: ids,
    reason: exception.reason,
    expires: exception.expires,
  };
}

/**
 * Removes the vulnerabilities an exception names (by id or any alias,
 * case-insensitively) and reports which exception waived which ids.
 */
export function waiveVulnerabilities(
  vulnerabilities: Vulnerability[],
  exceptions: readonly RegistryException[],
): { kept: Vulnerability[]; applied: AppliedException[] } {
  const kept: Vulnerability[] = [];
  const waived = new Map<RegistryException, string[]>();
  for (const v of vulnerabilities) {
    const names = new Set([v.id, ...v.aliases].map((id) => id.toUpperCase()));
    const by = exceptions.find((e) =>
      (e.vulnerabilities ?? []).some((id) => names.has(id.toUpperCase()))
    );
    if (by) waived.set(by, [...(waived.get(by) ?? []), v.id]);
    else kept.push(v);
  }
  return {
    kept,
    applied: [...waived].map(([e, ids]) => applied(e, "vulnerabilities", ids.sort())),
  };
}

/** The license ids the exceptions accept, and an entry for the one that accepts `license`. */
export function licenseExceptions(
  exceptions: readonly RegistryException[],
): { ids: string[]; appliedFor: (ids: string[]) => AppliedException[] } {
  const withLicenses = exceptions.filter((e) => e.licenses?.length);
  return {
    ids: withLicenses.flatMap((e) => e.licenses ?? []),
    appliedFor: (ids) => {
      const wanted = new Set(ids.map((id) => id.toUpperCase()));
      return withLicenses
        .map((e) => ({ e, hit: (e.licenses ?? []).filter((l) => wanted.has(l.toUpperCase())) }))
        .filter(({ hit }) => hit.length > 0)
        .map(({ e, hit }) => applied(e, "licenses", hit));
    },
  };
}
