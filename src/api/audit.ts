/**
 * Contract of `GET /audit`: the audit log, filtered and paginated newest
 * first with a keyset cursor. The same query drives `/dashboard/audit`.
 *
 * @module
 */
import { z } from "zod";
import { CALL_SOURCES } from "../core/types.ts";
import { defineRoute } from "./contract.ts";
import { AUDIT_CATEGORIES, AUDIT_VERDICTS, AuditRowSchema } from "./audit_row.ts";

export { AUDIT_CATEGORIES, AUDIT_VERDICTS } from "./audit_row.ts";

/** Largest page of `GET /audit`. */
export const MAX_AUDIT_PAGE = 500;

/** A position in the newest-first order: the last row of a page. */
export interface AuditCursor {
  ts: string;
  id: number;
}

/**
 * Encodes a cursor as an opaque URL-safe string.
 *
 * @example
 * ```ts
 * import { decodeCursor, encodeCursor } from "./audit.ts";
 * decodeCursor(encodeCursor({ ts: "2026-11-21T09:00:00.000Z", id: 7 })); // the same cursor
 * ```
 */
export function encodeCursor(cursor: AuditCursor): string {
  return btoa(`${cursor.ts}|${cursor.id}`).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Earliest and latest instants the audit filters accept (both stores can compare them). */
export const EARLIEST_INSTANT = "1970-01-01T00:00:00.000Z";
/** See {@link EARLIEST_INSTANT}. */
export const LATEST_INSTANT = "9999-12-31T23:59:59.999Z";

/** Whether a time stamp names a real instant within the accepted range. */
export function instantInRange(text: string): boolean {
  const time = Date.parse(text);
  return Number.isFinite(time) && time >= Date.parse(EARLIEST_INSTANT) &&
    time <= Date.parse(LATEST_INSTANT);
}

/** Decodes {@link encodeCursor}'s output; null when the text is not one. */
export function decodeCursor(text: string): AuditCursor | null {
  try {
    const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)\|(\d{1,15})$/.exec(plain);
    // A real instant only (no month 00): the store compares it as a time stamp.
    if (!match || !instantInRange(match[1])) return null;
    const canonical = new Date(match[1]).toISOString();
    if (canonical.slice(0, 19) !== match[1].slice(0, 19)) return null;
    return { ts: match[1], id: Number(match[2]) };
  } catch {
    return null;
  }
}

const text = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);

/** An ISO-8601 instant, or a bare date (`YYYY-MM-DD`, a whole UTC day). */
const instant = (what: string) =>
  z.union([z.iso.datetime({ offset: true }), z.iso.date()])
    .refine(instantInRange, { message: "must lie between 1970-01-01 and 9999-12-31" })
    .optional().describe(what);

/** The audit query: every filter narrows the rows; empty parameters count as absent. */
export const AuditQuerySchema = z.object({
  project: text("only this project (or header X-Policy-Project; default all; `*` = all)"),
  package: text("only this package (compared PEP 503-normalised: `PyCrypto` = `pycrypto`)"),
  verdict: z.enum(AUDIT_VERDICTS).optional().describe("only rows with this verdict"),
  category: z.enum(AUDIT_CATEGORIES).optional().describe("only rows of this denial category"),
  agent_model: text(
    "only calls from agent models starting with this, case-insensitive (X-Policy-Agent-Model; " +
      "`claude` finds `claude-code`)",
  ),
  source: z.enum(CALL_SOURCES).optional().describe("only calls from this source"),
  days: z.coerce.number().int().min(1).max(3650).optional().describe("only the last N days"),
  since: instant("only rows at or after this instant"),
  until: instant("only rows before this instant (a date includes that day)"),
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50).describe(
    "rows per page",
  ),
  cursor: z.string().max(200).optional().describe("`next_cursor` of the previous page")
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const decoded = decodeCursor(value);
      if (!decoded) {
        ctx.addIssue({ code: "custom", message: "is not a cursor returned by this API" });
        return z.NEVER;
      }
      return decoded;
    }),
});

/** A parsed audit query. */
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** One page of the audit log. */
export const AuditPageSchema = z.object({
  items: z.array(AuditRowSchema),
  total: z.number().int().describe("rows matching the filters, over all pages"),
  next_cursor: z.string().nullable().describe(
    "pass as `cursor` for the next page; null on the last",
  ),
});

/** `GET /audit`. */
export const auditRoute = defineRoute("get", "/audit", {
  summary: "The audit log, filtered, newest first, one page at a time (keyset cursor).",
  query: AuditQuerySchema,
  responses: { 200: { description: "one page of audit rows", schema: AuditPageSchema } },
  errors: { 400: "invalid filter, limit or cursor" },
});
