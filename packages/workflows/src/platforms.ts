/**
 * Where and how each AI coding-assistant platform reads project rules.
 * Sources: docs/workflows.md § Export (vendor documentation as of 2026).
 *
 * @module
 */

/** Platforms the exporter writes for. */
export const PLATFORMS = [
  "cursor",
  "claude",
  "copilot",
  "windsurf",
  "cline",
  "agents",
  "gemini",
] as const;

/** A platform id. */
export type PlatformId = typeof PLATFORMS[number];

/** How one platform's rule file is written. */
export interface Platform {
  /** Path relative to the export directory. */
  path: string;
  /** `file`: owned and overwritten; `block`: a marked block inside a shared file. */
  kind: "file" | "block";
  /** Front matter lines (without the `---` fences), if the format has any. */
  frontMatter?: (description: string) => string[];
  /** Above this size the compact index is written instead of the full document. */
  budget?: { chars?: number; lines?: number };
}

/**
 * The platform table: Cursor `.mdc` rules (agent-requested by description,
 * ~500 lines), Claude Code `.claude/rules/` (unconditional, no `paths`),
 * Copilot path-specific instructions (`applyTo`, 4,000-character budget of
 * code review), Windsurf rules (`trigger: model_decision`, 12,000 characters
 * per file), Cline `.clinerules/`, and blocks in `AGENTS.md` (~300 lines) and
 * `GEMINI.md`.
 *
 * @example
 * ```ts
 * import { PLATFORM_TABLE } from "./platforms.ts";
 * PLATFORM_TABLE.cursor.path; // ".cursor/rules/api-workflows.mdc"
 * ```
 */
export const PLATFORM_TABLE: Readonly<Record<PlatformId, Platform>> = {
  cursor: {
    path: ".cursor/rules/api-workflows.mdc",
    kind: "file",
    frontMatter: (d) => [`description: ${yamlString(d)}`, "alwaysApply: false"],
    budget: { lines: 500 },
  },
  claude: { path: ".claude/rules/api-workflows.md", kind: "file" },
  copilot: {
    path: ".github/instructions/api-workflows.instructions.md",
    kind: "file",
    frontMatter: (d) => ['applyTo: "**"', `description: ${yamlString(d)}`],
    budget: { chars: 4000 },
  },
  windsurf: {
    path: ".windsurf/rules/api-workflows.md",
    kind: "file",
    frontMatter: (d) => ["trigger: model_decision", `description: ${yamlString(d)}`],
    budget: { chars: 12000 },
  },
  cline: { path: ".clinerules/api-workflows.md", kind: "file" },
  agents: { path: "AGENTS.md", kind: "block", budget: { lines: 300 } },
  gemini: { path: "GEMINI.md", kind: "block" },
};

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/**
 * Parses a `--platform` list (`cursor,claude`); throws naming the unknown id.
 *
 * @example
 * ```ts
 * import { parsePlatforms } from "./platforms.ts";
 * parsePlatforms("cursor, agents"); // ["cursor", "agents"]
 * ```
 */
export function parsePlatforms(list: string | undefined): PlatformId[] {
  if (list === undefined || list.trim() === "" || list.trim() === "all") return [...PLATFORMS];
  return list.split(",").map((item) => {
    const id = item.trim().toLowerCase();
    if (!(PLATFORMS as readonly string[]).includes(id)) {
      throw new Error(
        `Cannot export for platform "${item.trim()}": expected one of ${PLATFORMS.join(", ")}`,
      );
    }
    return id as PlatformId;
  });
}
