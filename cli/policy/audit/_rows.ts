/**
 * Test factories for audit reports: entries and evaluations with only the
 * members a test cares about. Imported by tests only.
 *
 * @module
 */

import type { EvaluationResult } from "../api_client.ts";
import type { AuditedEntry, LoadedFile } from "../lockfiles/mod.ts";
import { entry } from "../lockfiles/types.ts";

/** An audited entry (index pin by default). */
export function auditedEntry(
  fields: Partial<AuditedEntry> & Pick<AuditedEntry, "name">,
): AuditedEntry {
  return {
    ...entry({ file: "requirements.txt", line: 1, ...fields }),
    direct: fields.direct ?? true,
  };
}

/** An evaluation as the server answers it. */
export function evaluation(
  pkg: string,
  verdict: EvaluationResult["verdict"],
  extra: Partial<EvaluationResult> = {},
): EvaluationResult {
  return {
    package: pkg,
    version: null,
    verdict,
    reason: `${pkg} is ${verdict}`,
    denial_category: null,
    replacement: null,
    cves: [],
    ...extra,
  };
}

/** A loaded file holding `entries`. */
export function loadedFile(entries: AuditedEntry[], file = "requirements.txt"): LoadedFile {
  return { file, format: "requirements", manifest: null, entries };
}
