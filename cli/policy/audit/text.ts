/**
 * Human renderings of an audit report: the terminal table and the Markdown
 * table for a pull-request comment.
 *
 * @module
 */

import type { AuditReport, AuditRow } from "./report.ts";

/** The verdict column of a row. */
export function verdictLabel(row: AuditRow): string {
  if (row.transport_error) return "NOT CHECKED";
  return row.verdict ?? "NOT EVALUATED";
}

/** `name==1.2`, `name (>=1.2)`, `name (git+…)`. */
export function packageLabel(row: AuditRow): string {
  if (row.source) return `${row.package}${row.version ? `==${row.version}` : ""} (${row.source})`;
  if (row.pinned && row.version) return `${row.package}==${row.version}`;
  return row.specifier ? `${row.package} (${row.specifier})` : row.package;
}

/** One sentence for a row: reason, CVEs, replacement. */
export function rowDetail(row: AuditRow): string {
  const parts = [row.reason.replace(/\.$/, "")];
  if (row.cves.length) parts.push(`CVEs: ${row.cves.join(", ")}`);
  if (row.replacement && !row.reason.includes(row.replacement)) {
    parts.push(`use ${row.replacement} instead`);
  }
  return parts.filter(Boolean).join("; ");
}

/** The summary sentence. */
export function summaryLine(report: AuditReport): string {
  const s = report.summary;
  const files = report.files.map((f) => f.file).join(", ");
  return `${report.results.length} packages in ${files || "no files"}: ${s.allowed} allowed, ` +
    `${s.provisional} provisional, ${s.denied} denied, ${s.unpinned} unpinned` +
    (s.transport_errors ? `, ${s.transport_errors} not checked` : "");
}

/** The terminal table: one line per package, then the summary. */
export function renderTable(report: AuditReport): string {
  const rows = report.results.map((r) => [
    verdictLabel(r),
    packageLabel(r),
    r.direct ? "direct" : "",
    `${r.file}:${r.line}`,
    rowDetail(r),
  ]);
  const header = ["VERDICT", "PACKAGE", "DIRECT", "LOCATION", "DETAIL"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => i === cells.length - 1 ? c : c.padEnd(widths[i])).join("  ").trimEnd();
  return [format(header), ...rows.map(format), summaryLine(report)].join("\n") + "\n";
}

function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/**
 * A Markdown section for a pull-request comment: the summary, then a table
 * of every package that is not plainly allowed (denied first).
 */
export function renderMarkdown(report: AuditReport): string {
  const order = { DENIED: 0, PROVISIONALLY_ALLOWED: 1, ALLOWED: 2 } as const;
  const flagged = report.results
    .filter((r) => r.verdict !== "ALLOWED" || r.transport_error)
    .sort((a, b) => (order[a.verdict ?? "ALLOWED"] ?? 2) - (order[b.verdict ?? "ALLOWED"] ?? 2));
  const s = report.summary;
  const icon = s.denied ? "❌" : s.provisional || s.transport_errors ? "⚠️" : "✅";
  const lines = [
    `### ${icon} policyd dependency audit`,
    "",
    `${summaryLine(report)}.`,
    "",
  ];
  if (!flagged.length) {
    lines.push("Every evaluated package is allowed.");
  } else {
    lines.push("| Verdict | Package | Version | Direct | Location | Detail |");
    lines.push("| --- | --- | --- | --- | --- | --- |");
    for (const r of flagged) {
      lines.push(
        `| ${cell(verdictLabel(r))} | \`${cell(r.package)}\` | ${
          cell(r.version ?? r.specifier ?? r.source ?? "")
        } | ${r.direct ? "yes" : "no"} | \`${cell(r.file)}:${r.line}\` | ${cell(rowDetail(r))} |`,
      );
    }
  }
  return lines.join("\n") + "\n";
}
