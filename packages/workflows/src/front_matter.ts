/**
 * The runner's options remembered in the document's YAML front matter, so a
 * later `run` or `check` without them compiles the same document.
 *
 * @module
 */
import { parse, stringify } from "yaml";
import { z } from "zod";
import { redactionSchema } from "./schema.ts";
import type { RedactionSettings } from "./types.ts";

/** The runner options a document remembers (all optional; absent means the default). */
export interface RememberedOptions {
  /** `--title`. */
  title?: string;
  /** `--conventions MODULE`, as given (relative to the directory the runner ran in). */
  conventions?: string;
  /** `--strict`. */
  strict?: boolean;
  /** `--command`: how the project runs the runner, named in its messages. */
  command?: string;
  /** `--redact-key`, `--redact-pattern`, `--keep`. */
  redaction?: RedactionSettings;
}

/** The front matter's top-level key. */
export const FRONT_MATTER_KEY = "workflows";

const rememberedSchema: z.ZodType<RememberedOptions> = z.strictObject({
  title: z.string().min(1).optional(),
  conventions: z.string().min(1).optional(),
  strict: z.boolean().optional(),
  command: z.string().min(1).optional(),
  redaction: redactionSchema.optional(),
});

const FENCE = /^---\n([\s\S]*?)\n---\n(?:\n)?/;

/**
 * Renders the front matter block (with a trailing blank line), or `""` when
 * nothing is remembered.
 *
 * @example
 * ```ts
 * import { renderFrontMatter } from "./front_matter.ts";
 * renderFrontMatter({ title: "Todo API" }); // "---\nworkflows:\n  title: Todo API\n---\n\n"
 * ```
 */
export function renderFrontMatter(options: RememberedOptions): string {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  if (Object.keys(defined).length === 0) return "";
  return `---\n${stringify({ [FRONT_MATTER_KEY]: defined }, { lineWidth: 0 })}---\n\n`;
}

/**
 * Splits a document into its remembered options and the Markdown after the
 * front matter. Throws an `Error` saying what is wrong when the front matter
 * is not the runner's.
 *
 * @example
 * ```ts
 * import { splitFrontMatter } from "./front_matter.ts";
 * splitFrontMatter("---\nworkflows:\n  title: T\n---\n\n# T\n");
 * // { options: { title: "T" }, body: "# T\n" }
 * ```
 */
export function splitFrontMatter(markdown: string): { options: RememberedOptions; body: string } {
  const match = FENCE.exec(markdown);
  if (!match) return { options: {}, body: markdown };
  let data: unknown;
  try {
    data = parse(match[1]);
  } catch (error) {
    throw new Error(`the document's front matter is not YAML: ${(error as Error).message}`);
  }
  const inner = (data as Record<string, unknown> | null)?.[FRONT_MATTER_KEY];
  const parsed = rememberedSchema.safeParse(inner ?? {});
  if (!parsed.success) {
    throw new Error(
      `the document's front matter (\`${FRONT_MATTER_KEY}:\`) is not the runner's: ${
        z.prettifyError(parsed.error)
      }`,
    );
  }
  return { options: parsed.data, body: markdown.slice(match[0].length) };
}
