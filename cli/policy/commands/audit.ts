/**
 * `policy audit [FILE…]`: reads what the project installs (lock files,
 * requirements, else pyproject.toml), evaluates every package through the
 * batch endpoint (deduplicated, chunks of MAX_BATCH) and prints a table,
 * JSON, SARIF 2.1.0 or Markdown. Exit 0 all allowed, 1 provisional or
 * transport errors (unless `--fail-on denied`), 2 any denied (SPEC §11,
 * §15.23; issue 15).
 *
 * @module
 */

import { dirname, join, relative, resolve, sep } from "node:path";
import { clientFor } from "../client_for.ts";
import type { Io } from "../io.ts";
import { discoverFiles, type LoadedFile, loadLockFile } from "../lockfiles/mod.ts";
import { prepareReaders } from "../lockfiles/manifest_readers.ts";
import type { AuditFormat, FailOn } from "../audit/options.ts";
import { auditExitCode, buildReport, distinctQueries } from "../audit/report.ts";
import { renderSarif } from "../audit/sarif.ts";
import { renderMarkdown, renderTable } from "../audit/text.ts";

/** The nearest directory at or above `dir` holding `.git` (a git work tree's root), or null. */
function workTreeRoot(dir: string): string | null {
  for (let at = dir;; at = dirname(at)) {
    try {
      Deno.statSync(join(at, ".git"));
      return at;
    } catch {
      if (dirname(at) === at) return null;
    }
  }
}

/** Options of `audit`. */
export interface AuditOptions {
  files?: string[];
  format?: AuditFormat;
  /** Legacy `--json`: same as `--format json`. */
  json?: boolean;
  failOn?: FailOn;
  onlyDirect?: boolean;
  agentModel?: string;
  agentVersion?: string;
  /** Tool version written into SARIF. */
  clientVersion?: string;
}

/** Runs `audit`. */
export async function audit(options: AuditOptions, io: Io): Promise<number> {
  const { client, config } = await clientFor(io, {
    source: "audit",
    agentModel: options.agentModel,
    agentVersion: options.agentVersion,
  });
  const label = (path: string) => {
    const rel = relative(io.cwd, path) || ".";
    return sep === "/" ? rel : rel.split(sep).join("/");
  };
  const ctx = {
    read: (p: string) => Deno.readTextFileSync(p),
    label,
    root: config.root,
    env: io.env,
  };
  const paths = options.files?.length
    ? options.files.map((f) => resolve(io.cwd, f))
    : discoverFiles(config.root);
  await prepareReaders(paths);
  const files: LoadedFile[] = paths.map((path) => loadLockFile(path, ctx));
  // A line or part a reader could not read is named; everything else is still audited.
  for (const warning of files.flatMap((f) => f.warnings ?? [])) {
    io.stderr(`policy: warning: ${warning}; not audited\n`);
  }
  const seen = new Set<string>();
  const entries = files.flatMap((f) => f.entries).filter((e) => {
    const key = `${e.file}\u0000${e.line}\u0000${e.name}\u0000${e.version ?? ""}`;
    if (seen.has(key) || (options.onlyDirect && !e.direct)) return false;
    seen.add(key);
    return true;
  });
  const queries = distinctQueries(entries);
  const evaluations = queries.length ? await client.evaluateBatch(queries) : [];
  const report = buildReport(files, entries, queries, evaluations);
  const format = options.json ? "json" : options.format ?? "table";
  if (format === "json") io.stdout(JSON.stringify(report, null, 2) + "\n");
  else if (format === "sarif") {
    const sarif = renderSarif(report, options.clientVersion ?? "0.0.0", (file) => {
      const abs = resolve(io.cwd, file);
      const top = workTreeRoot(dirname(abs));
      return top === null ? file : relative(top, abs).split(sep).join("/");
    });
    io.stdout(JSON.stringify(sarif, null, 2) + "\n");
  } else if (format === "markdown") io.stdout(renderMarkdown(report));
  else io.stdout(renderTable(report));
  if (report.summary.transport_errors) {
    const first = report.results.find((r) => r.transport_error);
    io.stderr(`policy: warning: ${first?.reason}\n`);
  }
  return auditExitCode(report.summary, options.failOn ?? "provisional");
}
