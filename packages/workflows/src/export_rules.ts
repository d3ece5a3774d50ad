/**
 * Export of the compiled document as rule files for AI coding assistants.
 *
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "./atomic_write.ts";
import { replaceBlock } from "./marker_block.ts";
import { splitFrontMatter } from "./front_matter.ts";
import { parseDocument } from "./parse_document.ts";
import { PLATFORM_TABLE, type PlatformId } from "./platforms.ts";

/** The compact index never exceeds this many characters. */
export const INDEX_BUDGET = 4000;

/** One file to write for one platform. */
export interface RuleFile {
  platform: PlatformId;
  /** Relative to the export directory. */
  path: string;
  kind: "file" | "block";
  /** `full`: the whole document; `index`: the compact index (the full text was over budget). */
  variant: "full" | "index";
  content: string;
}

/** Options of `renderRuleFiles()`. */
export interface RenderRulesOptions {
  platforms: readonly PlatformId[];
  /** Where the full document can be read (URL or path), named by the index variant. */
  link: string;
}

/**
 * Renders one rule file per platform from a compiled `workflows.md`: the full
 * document with the platform's front matter, or, when that exceeds the
 * platform's budget, a compact index (one line per workflow with its ID,
 * intent and call sequence, a link to the full document, at most 4,000
 * characters). Headings are demoted one level inside shared files.
 *
 * @example
 * ```ts
 * import { renderRuleFiles } from "./export_rules.ts";
 * const files = renderRuleFiles("# API Workflows\n", { platforms: ["cursor"], link: "workflows.md" });
 * files[0].path; // ".cursor/rules/api-workflows.mdc"
 * ```
 */
export function renderRuleFiles(markdown: string, options: RenderRulesOptions): RuleFile[] {
  const summary = parseDocument(markdown);
  const description =
    `${summary.title}: verified, test-gated API workflows (endpoints, payloads and ` +
    `call order) to follow when writing code that calls this API`;
  const full = splitFrontMatter(markdown).body.replace(/\n+$/, "") + "\n";
  return options.platforms.map((platform) => {
    const spec = PLATFORM_TABLE[platform];
    const wrap = (body: string) => {
      const text = spec.kind === "block" ? demoteHeadings(body) : body;
      if (!spec.frontMatter) return text;
      return ["---", ...spec.frontMatter(description), "---", "", text].join("\n");
    };
    const fullContent = wrap(full);
    const fits = withinBudget(fullContent, spec.budget);
    const overhead = wrap("").length;
    return {
      platform,
      path: spec.path,
      kind: spec.kind,
      variant: fits ? "full" : "index",
      content: fits
        ? fullContent
        : wrap(renderIndex(markdown, options.link, INDEX_BUDGET - overhead)),
    };
  });
}

function withinBudget(
  text: string,
  budget: { chars?: number; lines?: number } | undefined,
): boolean {
  if (!budget) return true;
  if (budget.chars !== undefined && text.length > budget.chars) return false;
  return budget.lines === undefined || text.split("\n").length <= budget.lines;
}

/**
 * The compact index of a compiled document (at most `maxChars`, default 4,000
 * characters): the document's Conventions (up to half of what the heading
 * leaves; the rest is pointed at), then one line per workflow; when the workflows do not all fit,
 * the last line says how many were left out.
 *
 * @example
 * ```ts
 * import { renderIndex } from "./export_rules.ts";
 * renderIndex("# API Workflows\n", "https://api.example.com/api/v1/workflows.md").length <= 4000; // true
 * ```
 */
export function renderIndex(markdown: string, link: string, maxChars = INDEX_BUDGET): string {
  const summary = parseDocument(markdown);
  const head = [
    `# ${summary.title} (index)`,
    "",
    "Verified API workflows, compiled from integration tests that passed. Before writing code that " +
    `calls this API, read the full document with request and response payloads: ${link}. Use only ` +
    "the endpoints, parameter names and call order it shows, and do not invent fields.",
    "",
  ].join("\n");
  const lines = summary.workflows.map((wf) =>
    `- **${wf.name}** (\`${wf.id}\`): ${wf.intent}` +
    (wf.actions.length ? ` Steps: ${wf.actions.join(" → ")}` : "")
  );
  const more = (n: number) => `- … and ${n} more workflows in the full document.\n`;
  let text = head;
  const frame = "## Conventions\n\n\n\n## Workflows\n\n";
  const conventions = summary.conventions === undefined ? "" : fitConventions(
    summary.conventions,
    Math.floor((maxChars - head.length) / 2) - frame.length,
    link,
  );
  if (conventions !== "") {
    text += `## Conventions\n\n${conventions}\n\n## Workflows\n\n`;
  }
  for (let i = 0; i < lines.length; i++) {
    const last = i === lines.length - 1;
    const next = text + lines[i] + "\n";
    // Keep room for the "… and N more" line unless this is the last workflow.
    if (next.length + (last ? 0 : more(lines.length).length) > maxChars) {
      return text + more(lines.length - i);
    }
    text = next;
  }
  return lines.length === 0 ? `${text}_No verified workflows yet._\n` : text;
}

// The conventions whole when they fit in `budget` characters, else their first
// lines and a pointer to the full document ("" when not even that fits).
function fitConventions(conventions: string, budget: number, link: string): string {
  if (conventions.length <= budget) return conventions;
  const tail = `- … the rest of the conventions are in the full document: ${link}`;
  if (tail.length > budget) return "";
  const kept: string[] = [];
  let length = tail.length;
  for (const line of conventions.split("\n")) {
    if (length + line.length + 1 > budget) break;
    kept.push(line);
    length += line.length + 1;
  }
  return [...kept, tail].join("\n");
}

function demoteHeadings(markdown: string): string {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.length >= fence.length)) {
      fence = fence === undefined ? marker : undefined;
      return line;
    }
    return fence === undefined && /^#{1,5} /.test(line) ? `#${line}` : line;
  }).join("\n");
}

/**
 * Writes rule files under `outDir`: owned files are replaced, shared files get
 * their marked block replaced in place (other content preserved). Writes are
 * atomic.
 *
 * @example
 * ```ts
 * import { renderRuleFiles, writeRuleFiles } from "./export_rules.ts";
 * const markdown = "# API Workflows\n";
 * const dir = await Deno.makeTempDir();
 * await writeRuleFiles(dir, renderRuleFiles(markdown, { platforms: ["agents"], link: "workflows.md" }));
 * ```
 */
export async function writeRuleFiles(outDir: string, files: readonly RuleFile[]): Promise<void> {
  for (const file of files) {
    const target = join(outDir, file.path);
    if (file.kind === "file") {
      await writeFileAtomic(target, file.content);
      continue;
    }
    const existing = await Deno.readTextFile(target).catch((error) => {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    });
    await writeFileAtomic(target, replaceBlock(existing, file.content));
  }
}
