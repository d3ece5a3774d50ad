/**
 * OSV records as they come from the API (zod schema) and their conversion
 * into the core's {@link Vulnerability} list: withdrawn records dropped,
 * records that alias each other merged, scored, and sorted. Shared by the
 * query adapter (`osv.ts`) and the scanner.
 *
 * @module
 */
import { z } from "zod";
import { advisoryId, MAX_SUMMARY, untrustedText } from "../core/untrusted.ts";
import type { AffectedVersions, Vulnerability } from "../core/types.ts";
import { normalizeName } from "../core/names.ts";
import { recordScore, type SeverityEntry } from "./cvss.ts";

const severitySchema = z.array(z.object({ type: z.string(), score: z.string() }));

const eventSchema = z.object({
  introduced: z.string().optional(),
  fixed: z.string().optional(),
  last_affected: z.string().optional(),
  limit: z.string().optional(),
});

/** The parts of an OSV record policyd reads; other fields are dropped. */
export const osvRecordSchema = z.object({
  // Untrusted text (issue 34): ids are cut to their first word and capped, summaries cleaned.
  id: z.string().min(1).transform(advisoryId),
  modified: z.string().optional(),
  withdrawn: z.string().nullish(),
  aliases: z.array(z.string().transform(advisoryId)).nullish(),
  summary: z.string().transform((s) => untrustedText(s, MAX_SUMMARY)).nullish(),
  details: z.string().nullish(),
  severity: severitySchema.nullish(),
  affected: z.array(z.object({
    package: z.object({ ecosystem: z.string(), name: z.string() }).partial().nullish(),
    ranges: z.array(z.object({ type: z.string(), events: z.array(eventSchema) })).nullish(),
    versions: z.array(z.string()).nullish(),
    severity: severitySchema.nullish(),
  })).nullish(),
  database_specific: z.object({
    severity: z.unknown().optional(),
    "malicious-packages-origins": z.unknown().optional(),
  }).nullish(),
});

/** One OSV record (the fields policyd uses). */
export type OsvRecord = z.infer<typeof osvRecordSchema>;

/** The PyPI `affected` entries of a record that name this package (PEP 503 match). */
function affectedFor(record: OsvRecord, name: string): AffectedVersions[] {
  const wanted = normalizeName(name);
  return (record.affected ?? [])
    .filter((a) =>
      a.package?.ecosystem === "PyPI" && normalizeName(a.package.name ?? "") === wanted
    )
    .map((a) => ({
      versions: a.versions ?? [],
      ranges: (a.ranges ?? [])
        .filter((r) => r.type === "ECOSYSTEM")
        .map((r) => ({ events: r.events })),
    }));
}

/**
 * Whether a record is a malicious-package advisory (ossf/malicious-packages):
 * a `MAL-` id or a `database_specific.malicious-packages-origins` entry.
 *
 * @example
 * ```ts
 * import { isMaliciousRecord } from "./osv_records.ts";
 * isMaliciousRecord({ id: "MAL-2022-7439" }); // true
 * isMaliciousRecord({ id: "PYSEC-2023-74" }); // false
 * ```
 */
export function isMaliciousRecord(record: Pick<OsvRecord, "id" | "database_specific">): boolean {
  return record.id.startsWith("MAL-") ||
    record.database_specific?.["malicious-packages-origins"] !== undefined;
}

/** Score of one record; vectors may also sit on its `affected` entries (OSV schema). */
function scoreOf(record: OsvRecord): number | null {
  const severity: SeverityEntry[] = [
    ...(record.severity ?? []),
    ...(record.affected ?? []).flatMap((a) => a.severity ?? []),
  ];
  const qualitative = record.database_specific?.severity;
  return recordScore(severity, typeof qualitative === "string" ? qualitative : undefined);
}

/**
 * Picks the reported id (SPEC §16.3): the `CVE-` id among the merged records
 * and their aliases, else the id of a record itself, never another alias.
 * Among merged records without a CVE, a GHSA record's own id wins (GitHub's
 * advisory is the one users look up), then the smallest record id.
 */
export function reportedId(allIds: string[], recordIds: string[]): string {
  const cve = [...allIds].sort().find((id) => id.startsWith("CVE-"));
  if (cve) return cve;
  const records = [...recordIds].sort();
  return records.find((id) => id.startsWith("GHSA-")) ?? records[0];
}

function summaryOf(records: OsvRecord[]): string | undefined {
  const ordered = [...records].sort((a, b) =>
    Number(b.id.startsWith("GHSA-")) - Number(a.id.startsWith("GHSA-"))
  );
  const summary = ordered.find((r) => r.summary?.trim())?.summary?.trim();
  if (summary) return summary;
  const details = ordered.find((r) => r.details?.trim())?.details?.trim();
  if (!details) return undefined;
  const line = details.split("\n")[0].trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * Converts the OSV records of one package into vulnerabilities: withdrawn
 * records are ignored; records that alias each other (transitively, also
 * through a shared alias) become one entry scored with the highest of their
 * scores; the result is sorted highest score first (unscored last), then by id.
 *
 * @example
 * ```ts
 * declare const records: OsvRecord[]; // an OSV answer for requests
 * const vulns = toVulnerabilities(records, "requests");
 * vulns[0].id; // "CVE-2023-32681" for PYSEC-2023-74 + GHSA-j8r2-6x86-q33q
 * ```
 */
export function toVulnerabilities(records: readonly OsvRecord[], name: string): Vulnerability[] {
  const live = records.filter((r) => !r.withdrawn);
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(rb, ra);
  };
  for (const record of live) {
    find(record.id);
    for (const alias of record.aliases ?? []) union(record.id, alias);
  }
  const groups = new Map<string, OsvRecord[]>();
  const seen = new Set<string>();
  for (const record of live) {
    if (seen.has(record.id)) continue; // the same record twice (pagination overlap)
    seen.add(record.id);
    const root = find(record.id);
    groups.set(root, [...(groups.get(root) ?? []), record]);
  }
  const vulnerabilities: Vulnerability[] = [];
  for (const group of groups.values()) {
    const ids = new Set<string>();
    for (const r of group) {
      ids.add(r.id);
      for (const a of r.aliases ?? []) ids.add(a);
    }
    // A malicious-package advisory is a threat, not a scored vulnerability (SPEC §17.2).
    const malicious = group.some(isMaliciousRecord);
    const scores = malicious ? [] : group.map(scoreOf).filter((s): s is number => s !== null);
    const summary = summaryOf(group);
    vulnerabilities.push({
      id: reportedId([...ids], group.map((r) => r.id)),
      aliases: [...ids].sort(),
      score: scores.length > 0 ? Math.max(...scores) : null,
      ...(summary === undefined ? {} : { summary }),
      affected: group.flatMap((r) => affectedFor(r, name)),
      ...(malicious ? { malicious: true } : {}),
    });
  }
  return vulnerabilities.sort(compareVulnerabilities);
}

/** Highest score first, unscored last, then by id. */
export function compareVulnerabilities(a: Vulnerability, b: Vulnerability): number {
  const sa = a.score ?? -1;
  const sb = b.score ?? -1;
  if (sa !== sb) return sb - sa;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
