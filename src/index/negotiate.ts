/**
 * PEP 691 content negotiation: which simple repository format an `Accept`
 * header asks for. JSON wins a tie; no header (or only `*\/*`) gets HTML, the
 * format every installer reads. Pure.
 *
 * @module
 */
import { SIMPLE_HTML, SIMPLE_JSON } from "./page.ts";

/** The formats policyd serves, in order of preference at equal quality. */
export const SIMPLE_FORMATS = [SIMPLE_JSON, SIMPLE_HTML, "text/html"] as const;

/** One of {@link SIMPLE_FORMATS}. */
export type SimpleFormat = typeof SIMPLE_FORMATS[number];

/**
 * The format to answer with; null when the header names none of them (→ 406).
 *
 * @example
 * ```ts
 * negotiate("application/vnd.pypi.simple.v1+json, text/html;q=0.01"); // "application/vnd.pypi.simple.v1+json"
 * negotiate(undefined); // "text/html"
 * ```
 */
export function negotiate(accept: string | undefined): SimpleFormat | null {
  if (!accept || !accept.trim()) return "text/html";
  let best: { format: SimpleFormat; q: number; rank: number } | null = null;
  for (const part of accept.split(",")) {
    const [type, ...params] = part.trim().toLowerCase().split(";").map((s) => s.trim());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    const candidates: readonly SimpleFormat[] = type === "*/*"
      ? ["text/html"]
      : type === "application/*"
      ? [SIMPLE_JSON, SIMPLE_HTML]
      : type === "text/*"
      ? ["text/html"]
      : SIMPLE_FORMATS.filter((f) => f === type);
    for (const format of candidates) {
      const rank = SIMPLE_FORMATS.indexOf(format);
      if (!best || q > best.q || (q === best.q && rank < best.rank)) best = { format, q, rank };
    }
  }
  return best?.format ?? null;
}
