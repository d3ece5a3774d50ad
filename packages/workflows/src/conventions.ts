/**
 * The API's conventions: what every workflow silently relies on (base path,
 * authentication, error format, headers, enumerations). A project describes
 * them once, in a module it hands to the runner (`--conventions MODULE`); the
 * document renders them as its first section, `## Conventions`.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { oneLine } from "./markdown.ts";

/** A named item with its meaning (an authentication mode, an error status, …). */
export interface ConventionItem {
  name: string;
  meaning: string;
}

/** A header the API reads or sends. */
export interface ConventionHeader {
  name: string;
  /** `request`: the caller sends it; `response`: the API sends it. */
  direction: "request" | "response";
  meaning: string;
}

/** A closed set of values that appears on the wire. */
export interface ConventionEnumeration {
  /** Where it appears, e.g. the field name `verdict`. */
  name: string;
  values: readonly string[];
  meaning?: string;
}

/** The description a project passes once; every part is optional. */
export interface ApiConventions {
  /** Where every API path starts, e.g. `/api/v1`. */
  basePath?: string;
  authentication?: { summary: string; modes?: readonly ConventionItem[] };
  errors?: {
    summary: string;
    /** The media type of error responses, e.g. `application/problem+json`. */
    mediaType?: string;
    /** Statuses a caller meets, with when. */
    statuses?: readonly ConventionItem[];
  };
  headers?: readonly ConventionHeader[];
  enumerations?: readonly ConventionEnumeration[];
  /** Further one-paragraph rules (pagination, idempotency, …). */
  notes?: readonly string[];
}

const item = z.object({ name: z.string().min(1), meaning: z.string().min(1) });

/**
 * Schema of a conventions description (it is read from a project module and
 * back from `workflows.json`, so it is validated).
 *
 * @example
 * ```ts
 * import { conventionsSchema } from "./conventions.ts";
 * conventionsSchema.parse({ basePath: "/api/v1" });
 * ```
 */
export const conventionsSchema: z.ZodType<ApiConventions> = z.strictObject({
  basePath: z.string().startsWith("/").optional(),
  authentication: z.strictObject({ summary: z.string().min(1), modes: z.array(item).optional() })
    .optional(),
  errors: z.strictObject({
    summary: z.string().min(1),
    mediaType: z.string().optional(),
    statuses: z.array(item).optional(),
  }).optional(),
  headers: z.array(z.strictObject({
    name: z.string().min(1),
    direction: z.enum(["request", "response"]),
    meaning: z.string().min(1),
  })).optional(),
  enumerations: z.array(z.strictObject({
    name: z.string().min(1),
    values: z.array(z.string()).min(1),
    meaning: z.string().optional(),
  })).optional(),
  notes: z.array(z.string().min(1)).optional(),
});

const code = (text: string) => `\`${text}\``;

/**
 * Renders the body of the `## Conventions` section (without the heading):
 * the base path, then `### Authentication`, `### Errors`, `### Headers`,
 * `### Enumerations` and `### Notes`, each only when described. Deterministic:
 * the order is the description's.
 *
 * @example
 * ```ts
 * import { renderConventions } from "./conventions.ts";
 * renderConventions({ basePath: "/api/v1" });
 * // "**Base path:** `/api/v1`. Every path in this document is shown in full, base path included."
 * ```
 */
export function renderConventions(conventions: ApiConventions): string {
  const parts: string[] = [];
  if (conventions.basePath !== undefined) {
    parts.push(
      `**Base path:** ${
        code(conventions.basePath)
      }. Every path in this document is shown in full, base path included.`,
    );
  }
  const auth = conventions.authentication;
  if (auth) {
    parts.push("### Authentication", oneLine(auth.summary));
    if (auth.modes?.length) parts.push(list(auth.modes.map((m) => [`**${m.name}**`, m.meaning])));
  }
  const errors = conventions.errors;
  if (errors) {
    const media = errors.mediaType ? ` Media type: ${code(errors.mediaType)}.` : "";
    parts.push("### Errors", oneLine(errors.summary) + media);
    if (errors.statuses?.length) {
      parts.push(list(errors.statuses.map((s) => [code(s.name), s.meaning])));
    }
  }
  if (conventions.headers?.length) {
    parts.push(
      "### Headers",
      list(conventions.headers.map((h) => [`${code(h.name)} (${h.direction})`, h.meaning])),
    );
  }
  if (conventions.enumerations?.length) {
    parts.push(
      "### Enumerations",
      list(conventions.enumerations.map((e) => [
        code(e.name),
        e.values.map(code).join(", ") + (e.meaning ? ` — ${e.meaning}` : ""),
      ])),
    );
  }
  if (conventions.notes?.length) {
    parts.push("### Notes", conventions.notes.map(oneLine).join("\n\n"));
  }
  return parts.join("\n\n");
}

function list(rows: [string, string][]): string {
  return rows.map(([name, meaning]) => `- ${name}: ${oneLine(meaning)}`).join("\n");
}

/**
 * Loads a conventions description from a module (path relative to `cwd`, or a
 * URL): its `conventions` export, else its default export, validated. Throws
 * an `Error` saying what is wrong.
 *
 * @example
 * ```ts ignore
 * import { loadConventions } from "./conventions.ts";
 * const conventions = await loadConventions("src/api/conventions.ts", Deno.cwd());
 * ```
 */
export async function loadConventions(specifier: string, cwd: string): Promise<ApiConventions> {
  const url = /^(file|https?):/.test(specifier)
    ? specifier
    : pathToFileURL(resolve(cwd, specifier)).href;
  const mod = await import(url) as { conventions?: unknown; default?: unknown };
  const value = mod.conventions ?? mod.default;
  if (value === undefined) {
    throw new Error(`${specifier} exports no \`conventions\` (nor a default export)`);
  }
  const parsed = conventionsSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `${specifier}: not a conventions description: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
