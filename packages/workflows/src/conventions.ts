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
import { cell, fence, oneLine } from "./markdown.ts";

import type {
  ApiConventions,
  ConventionEnumeration,
  ConventionFormat,
  ConventionItem,
  ConventionSettings,
} from "./conventions_types.ts";

export type * from "./conventions_types.ts";

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
    values: z.array(z.union([z.string(), item])).min(1),
    meaning: z.string().optional(),
  })).optional(),
  formats: z.array(z.strictObject({
    name: z.string().min(1),
    meaning: z.string().min(1),
    schema: z.string().min(1).optional(),
    schemaLanguage: z.string().min(1).optional(),
    example: z.string().min(1).optional(),
    exampleLanguage: z.string().min(1).optional(),
  })).optional(),
  notes: z.array(z.string().min(1)).optional(),
  settings: z.strictObject({
    summary: z.string().min(1).optional(),
    variables: z.array(z.strictObject({
      name: z.string().min(1),
      type: z.string().min(1),
      default: z.string().optional(),
      meaning: z.string().min(1),
    })),
    notes: z.array(z.string().min(1)).optional(),
  }).optional(),
});

const code = (text: string) => `\`${text}\``;

/**
 * Renders the body of the `## Conventions` section (without the heading):
 * the base path, then `### Authentication`, `### Errors`, `### Headers`,
 * `### Enumerations`, `### Formats` and `### Notes`, each only when described
 * (the settings are their own section, see {@link renderSettings}). Deterministic:
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
    parts.push("### Enumerations", conventions.enumerations.map(enumeration).join("\n"));
  }
  if (conventions.formats?.length) {
    parts.push("### Formats", ...conventions.formats.map(format));
  }
  if (conventions.notes?.length) {
    parts.push("### Notes", conventions.notes.map(oneLine).join("\n\n"));
  }
  return parts.join("\n\n");
}

function enumeration(e: ConventionEnumeration): string {
  const described = e.values.filter((v): v is ConventionItem => typeof v !== "string");
  const names = e.values.map((v) => code(typeof v === "string" ? v : v.name)).join(", ");
  const head = list([[code(e.name), names + (e.meaning ? ` — ${e.meaning}` : "")]]);
  if (described.length === 0) return head;
  return [head, ...described.map((v) => `  - ${code(v.name)}: ${oneLine(v.meaning)}`)].join("\n");
}

function format(f: ConventionFormat): string {
  const parts = [`**${f.name}**: ${oneLine(f.meaning)}`];
  if (f.schema !== undefined) parts.push("Schema:", fence(f.schemaLanguage ?? "json", f.schema));
  if (f.example !== undefined) {
    parts.push("Example:", fence(f.exampleLanguage ?? "json", f.example));
  }
  return parts.join("\n\n");
}

/** A workflow as the settings table sees it: its name, anchor and requirements. */
export interface SettingsReader {
  name: string;
  anchor: string;
  requires?: readonly string[];
}

/**
 * Renders the body of the `## Settings` section (without the heading): the
 * summary, a table of every variable (type, default, purpose, and the
 * workflows whose **Requires:** line names the variable, linked), then the
 * notes. Deterministic: the order is the description's.
 *
 * @example
 * ```ts
 * import { renderSettings } from "./conventions.ts";
 * renderSettings({ variables: [{ name: "PORT", type: "port", default: "8080", meaning: "listen port" }] }, [
 *   { name: "Start", anchor: "workflow-start", requires: ["PORT free"] },
 * ]);
 * ```
 */
export function renderSettings(
  settings: ConventionSettings,
  workflows: readonly SettingsReader[],
): string {
  const parts: string[] = [];
  if (settings.summary !== undefined) parts.push(oneLine(settings.summary));
  const rows = settings.variables.map((v) => {
    const named = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(v.name)}(?![A-Za-z0-9_])`);
    const needed = workflows.filter((wf) => wf.requires?.some((line) => named.test(line)))
      .map((wf) => `[${oneLine(wf.name)}](#${wf.anchor})`);
    return [
      code(v.name),
      cell(v.type),
      v.default === undefined ? "unset" : code(v.default),
      cell(v.meaning),
      needed.length === 0 ? "—" : needed.join(", "),
    ];
  });
  parts.push(
    [
      "| Variable | Type | Default | Purpose | Workflows that need it |",
      "| --- | --- | --- | --- | --- |",
      ...rows.map((row) => `| ${row.join(" | ")} |`),
    ].join("\n"),
  );
  if (settings.notes?.length) parts.push(settings.notes.map(oneLine).join("\n\n"));
  return parts.join("\n\n");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
