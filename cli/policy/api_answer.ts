/**
 * How the client words a failed call: the transport's last cause, or the
 * problem+json detail (with up to three field errors) of an HTTP error.
 *
 * @module
 */
import type { HttpAnswer } from "./transport.ts";

/**
 * The useful end of a transport error's message.
 *
 * @example
 * ```ts
 * import { transportDetail } from "./api_answer.ts";
 * transportDetail(new Error("error sending request for url (x): tcp connect error: Connection refused"));
 * // "Connection refused"
 * ```
 */
export function transportDetail(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const text = String((cause as Error)?.message ?? (error as Error)?.message ?? error);
  // "error sending request for url (…): client error (Connect): tcp connect error: Connection refused (os error 111)"
  const last = text.split(": ").filter((part) => !part.startsWith("error sending request")).pop();
  return (last ?? text).split("\n")[0];
}

/** `: path: message; …` of a problem's `errors` (422), empty without them. */
function fieldErrors(errors: unknown): string {
  if (!Array.isArray(errors) || errors.length === 0) return "";
  const shown = errors.slice(0, 3).map((e) =>
    `${String((e as { path?: unknown })?.path ?? "")}: ${
      String((e as { message?: unknown })?.message ?? "")
    }`
  );
  return `: ${shown.join("; ")}`.split("\n")[0];
}

/** The first line of a problem's `detail` (or `title`), else of the body, else the status text. */
export function problemDetail(body: unknown, text: string, response: HttpAnswer): string {
  if (body && typeof body === "object") {
    const p = body as Record<string, unknown>;
    for (const key of ["detail", "title"]) {
      if (typeof p[key] === "string" && p[key]) {
        return (p[key] as string).split("\n")[0] + fieldErrors(p.errors);
      }
    }
  }
  return text.trim().split("\n")[0].slice(0, 200) || response.statusText || "error";
}
