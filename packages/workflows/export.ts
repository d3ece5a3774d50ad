/**
 * Export of a compiled document as one rule file per AI coding-assistant
 * platform (Cursor, Claude Code, GitHub Copilot, Windsurf, Cline, AGENTS.md,
 * Gemini CLI).
 *
 * @example
 * ```ts
 * import { renderRuleFiles } from "@policyd/workflows/export";
 * const files = renderRuleFiles("# API Workflows\n", { platforms: ["cline"], link: "workflows.md" });
 * files[0].path; // ".clinerules/api-workflows.md"
 * ```
 *
 * @module
 */
export {
  INDEX_BUDGET,
  renderIndex,
  renderRuleFiles,
  type RenderRulesOptions,
  type RuleFile,
  writeRuleFiles,
} from "./src/export_rules.ts";
export { parsePlatforms, PLATFORM_TABLE, type PlatformId, PLATFORMS } from "./src/platforms.ts";
export { BLOCK_BEGIN, BLOCK_END, replaceBlock } from "./src/marker_block.ts";
