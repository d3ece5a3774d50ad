/**
 * Assembles the document from gated workflows: ordering, ID uniqueness,
 * merging with the previous document for narrowed runs, JSON serialisation.
 *
 * @module
 */
import { type JUnitReport, testKey } from "./junit.ts";
import type { ApiConventions } from "./conventions.ts";
import type { RedactionSettings, Workflow, WorkflowDocument } from "./types.ts";

/** The default document title. */
export const DEFAULT_TITLE = "API Workflows";

/**
 * Orders workflows by test file, then declaration index, then test name
 * (code-unit comparison, independent of locale) and checks that IDs are
 * unique. Throws an `Error` naming both tests when two workflows share an ID.
 * `conventions`, when given, become the document's first section;
 * `redaction`, the project's redaction extensions, are kept for the preamble.
 *
 * @example
 * ```ts
 * import { buildDocument } from "./document.ts";
 * buildDocument([], "API Workflows"); // { format: "workflows/v1", title: "API Workflows", workflows: [] }
 * ```
 */
export function buildDocument(
  workflows: readonly Workflow[],
  title = DEFAULT_TITLE,
  conventions?: ApiConventions,
  redaction?: RedactionSettings,
): WorkflowDocument {
  const sorted = [...workflows].sort(compareSource);
  const byId = new Map<string, Workflow>();
  for (const wf of sorted) {
    const other = byId.get(wf.id);
    if (other) {
      throw new Error(
        `Cannot compile workflows: ID "${wf.id}" is used by "${other.source.test}" (${other.source.file}) ` +
          `and "${wf.source.test}" (${wf.source.file}); give the workflows distinct names`,
      );
    }
    byId.set(wf.id, wf);
  }
  return {
    format: "workflows/v1",
    title,
    ...(conventions === undefined ? {} : { conventions }),
    ...(redaction === undefined ? {} : { redaction }),
    workflows: sorted,
  };
}

function compareSource(a: Workflow, b: Workflow): number {
  const x = a.source;
  const y = b.source;
  if (x.file !== y.file) return x.file < y.file ? -1 : 1;
  if (x.index !== y.index) return x.index - y.index;
  return x.test < y.test ? -1 : x.test > y.test ? 1 : 0;
}

/**
 * Merges a narrowed run into the previous document: this run's passing
 * workflows replace or add entries; a previous entry is kept only if its test
 * did not run in this run (skipped by the filter, or its file was not part of
 * the run) and its file still exists. Entries whose test ran and failed, ran
 * without publishing, or vanished from a file that ran are dropped.
 *
 * @example
 * ```ts
 * import { mergeWorkflows } from "./document.ts";
 * import { parseJUnit } from "./junit.ts";
 * mergeWorkflows([], [], parseJUnit("<testsuites/>"), () => true); // []
 * ```
 */
export function mergeWorkflows(
  previous: readonly Workflow[],
  current: readonly Workflow[],
  report: JUnitReport,
  fileExists: (file: string) => boolean,
): Workflow[] {
  const published = new Set(current.map((wf) => testKey(wf.source.file, wf.source.test)));
  const carried = previous.filter((wf) => {
    const key = testKey(wf.source.file, wf.source.test);
    if (published.has(key)) return false;
    const verdict = report.verdicts.get(key);
    if (verdict !== undefined) return verdict === "skipped";
    return !report.files.has(wf.source.file) && fileExists(wf.source.file);
  });
  return [...carried, ...current];
}

/**
 * Serialises the JSON twin deterministically (two-space indent, trailing newline).
 *
 * @example
 * ```ts
 * import { serializeDocument } from "./document.ts";
 * serializeDocument({ format: "workflows/v1", title: "T", workflows: [] }).endsWith("\n"); // true
 * ```
 */
export function serializeDocument(doc: WorkflowDocument): string {
  return JSON.stringify(doc, null, 2) + "\n";
}
