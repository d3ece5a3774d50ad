/**
 * Reads the summary of a compiled `workflows.md` back (for the exporter).
 *
 * @module
 */
import { splitFrontMatter } from "./front_matter.ts";

/** One workflow as the exporter sees it. */
export interface WorkflowSummary {
  name: string;
  id: string;
  intent: string;
  /** The Action column of the sequence table, in step order. */
  actions: string[];
}

/** The parts of a compiled document the exporter needs. */
export interface DocumentSummary {
  title: string;
  /** The body of the `## Conventions` section (preamble excluded), when the document has one. */
  conventions?: string;
  workflows: WorkflowSummary[];
}

/**
 * Parses the title, and each workflow's name, ID, intent and step actions
 * (with the route template instead of the concrete path when there is one),
 * from a document rendered by `renderDocument()`. Throws when the text has no
 * `# ` title, i.e. is not a compiled document.
 *
 * @example
 * ```ts
 * import { parseDocument } from "./parse_document.ts";
 * parseDocument("# API Workflows\n\n## Workflow: Log in\n\n**ID:** `log_in`\n\n**Intent:** Get a session.\n");
 * // { title: "API Workflows", workflows: [{ name: "Log in", id: "log_in", intent: "Get a session.", actions: [] }] }
 * ```
 */
export function parseDocument(markdown: string): DocumentSummary {
  const lines = splitFrontMatter(markdown).body.split("\n");
  const title = lines.find((line) => line.startsWith("# "))?.slice(2).trim();
  if (title === undefined) {
    throw new Error("Cannot read the workflows document: it has no `# ` title line");
  }
  const workflows: WorkflowSummary[] = [];
  let current: WorkflowSummary | undefined;
  let inSequence = false;
  let fence: string | undefined;
  let conventions: string[] | undefined;
  let inConventions = false;
  for (const line of lines) {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.length >= fence.length)) {
      fence = fence === undefined ? marker : undefined;
      if (inConventions) conventions?.push(line);
      continue;
    }
    if (line.startsWith("## ") && fence === undefined) {
      inConventions = line === "## Conventions";
      if (inConventions) conventions = [];
    } else if (inConventions) {
      conventions?.push(line);
      continue;
    }
    if (fence !== undefined) continue;
    if (line.startsWith("## Workflow: ")) {
      current = { name: line.slice(13).trim(), id: "", intent: "", actions: [] };
      workflows.push(current);
      inSequence = false;
    } else if (current && line.startsWith("**ID:** ")) {
      current.id = line.slice(8).replace(/`/g, "").trim();
    } else if (current && line.startsWith("**Intent:** ")) {
      current.intent = line.slice(12).trim();
    } else if (line.startsWith("### ")) {
      inSequence = line.startsWith("### 1. ");
    } else if (current && inSequence && /^\| \d+ \|/.test(line)) {
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
      const route = /\(route `([^`]+)`\)/.exec(cells[4] ?? "")?.[1];
      const action = cells[3];
      current.actions.push(route === undefined ? action : action.replace(/ .*$/, ` ${route}`));
    }
  }
  if (conventions === undefined) return { title, workflows };
  // The first paragraph is the preamble (how the document was made), not a convention.
  const body = conventions.join("\n").trim().split("\n\n").slice(1).join("\n\n").trim();
  return { title, conventions: body, workflows };
}
