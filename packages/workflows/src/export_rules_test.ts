import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "./cli.ts";
import { buildDocument } from "./document.ts";
import { INDEX_BUDGET, renderIndex, renderRuleFiles, writeRuleFiles } from "./export_rules.ts";
import { renderFrontMatter, splitFrontMatter } from "./front_matter.ts";
import { BLOCK_BEGIN, BLOCK_END, replaceBlock } from "./marker_block.ts";
import { PLATFORMS } from "./platforms.ts";
import { renderDocument } from "./render.ts";
import type { Workflow } from "./types.ts";

function workflows(count: number, payload = 10): Workflow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `workflow_${i}`,
    name: `Workflow ${i}`,
    intent: `Do thing number ${i} with the API.`,
    status: "Verified / Test-Gated" as const,
    source: { file: "./a_test.ts", test: `t${i}`, index: i },
    steps: [
      {
        kind: "api" as const,
        method: "POST",
        path: `/api/v1/things`,
        status: 201,
        request: {
          type: "json" as const,
          value: { lines: Array.from({ length: payload }, (_, j) => `line ${j}`) },
        },
      },
      { kind: "boundary" as const, domain: "Client", name: "Decide" },
    ],
    dataFlow: [],
  }));
}

Deno.test("renderRuleFiles() writes each platform's own location and front matter", () => {
  const md = renderDocument(buildDocument(workflows(5, 20)));
  const files = renderRuleFiles(md, {
    platforms: [...PLATFORMS],
    link: "https://api.example.com/api/v1/workflows.md",
  });
  const byPlatform = Object.fromEntries(files.map((f) => [f.platform, f]));
  assert.deepEqual(files.map((f) => f.path), [
    ".cursor/rules/api-workflows.mdc",
    ".claude/rules/api-workflows.md",
    ".github/instructions/api-workflows.instructions.md",
    ".windsurf/rules/api-workflows.md",
    ".clinerules/api-workflows.md",
    "AGENTS.md",
    "GEMINI.md",
  ]);
  assert.match(
    byPlatform.cursor.content,
    /^---\ndescription: "API Workflows: verified[^\n]*"\nalwaysApply: false\n---\n\n# API Workflows\n/,
  );
  assert.match(byPlatform.copilot.content, /^---\napplyTo: "\*\*"\ndescription: "[^\n]*"\n---\n\n/);
  assert.match(
    byPlatform.windsurf.content,
    /^---\ntrigger: model_decision\ndescription: "[^\n]*"\n---\n\n# API Workflows\n/,
  );
  assert.ok(byPlatform.claude.content.startsWith("# API Workflows\n"));
  assert.ok(byPlatform.cline.content.startsWith("# API Workflows\n"));
  assert.ok(
    byPlatform.agents.content.startsWith("## API Workflows\n"),
    "headings are demoted inside shared files",
  );
  assert.ok(byPlatform.agents.content.includes("\n### Workflow: Workflow 1\n"));
  assert.equal(byPlatform.windsurf.variant, "full");
  assert.equal(
    byPlatform.copilot.variant,
    "index",
    "the full document is over Copilot's 4,000 characters",
  );
  assert.ok(byPlatform.copilot.content.length <= INDEX_BUDGET);
  assert.match(
    byPlatform.copilot.content,
    /- \*\*Workflow 0\*\* \(`workflow_0`\): Do thing number 0 with the API\. Steps: POST \/api\/v1\/things → Client Logic Query/,
  );
  assert.match(byPlatform.copilot.content, /https:\/\/api\.example\.com\/api\/v1\/workflows\.md/);
});

Deno.test("renderRuleFiles() falls back to a ≤ 4,000-character index where limits bite", () => {
  const md = renderDocument(buildDocument(workflows(80, 40)));
  const files = renderRuleFiles(md, {
    platforms: ["windsurf", "copilot", "cursor", "agents", "gemini"],
    link: "workflows.md",
  });
  for (const file of files) {
    if (file.platform === "gemini") {
      assert.equal(file.variant, "full");
      continue;
    }
    assert.equal(file.variant, "index", file.platform);
    assert.ok(file.content.length <= INDEX_BUDGET, `${file.platform}: ${file.content.length}`);
    assert.match(file.content, /- … and \d+ more workflows in the full document\.\n$/);
  }
});

Deno.test("replaceBlock() replaces the marked block in place and preserves everything else", () => {
  const before =
    `# Team notes\n\nKeep this.\n\n${BLOCK_BEGIN}\nold\n${BLOCK_END}\n\n## After\n\nAnd this.\n`;
  assert.equal(
    replaceBlock(before, "new\n"),
    `# Team notes\n\nKeep this.\n\n${BLOCK_BEGIN}\nnew\n${BLOCK_END}\n\n## After\n\nAnd this.\n`,
  );
  assert.equal(replaceBlock("Mine.", "x"), `Mine.\n\n${BLOCK_BEGIN}\nx\n${BLOCK_END}\n`);
  assert.equal(replaceBlock(undefined, "x"), `${BLOCK_BEGIN}\nx\n${BLOCK_END}\n`);
  assert.throws(() => replaceBlock(`${BLOCK_BEGIN}\nno end`, "x"), /has no matching/);
});

Deno.test("the export command writes rule files and updates shared files in place", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const input = join(dir, "workflows.md");
    await Deno.writeTextFile(input, renderDocument(buildDocument(workflows(1))));
    const out = join(dir, "site");
    await Deno.mkdir(out);
    await Deno.writeTextFile(join(out, "AGENTS.md"), "# Agents\n\nHand-written rules.\n");
    const lines: string[] = [];
    const io = { cwd: dir, env: () => undefined, log: (l: string) => lines.push(l) };
    assert.equal(
      await main(
        ["export", "--in", "workflows.md", "--out", "site", "--platform", "cursor,agents"],
        io,
      ),
      0,
    );
    assert.equal(
      await main(["export", "--in", "workflows.md", "--out", "site", "--platform", "agents"], io),
      0,
    );
    const agents = await Deno.readTextFile(join(out, "AGENTS.md"));
    assert.ok(
      agents.startsWith(
        "# Agents\n\nHand-written rules.\n\n<!-- BEGIN generated:workflows -->\n## API Workflows\n",
      ),
    );
    assert.equal(
      agents.split(BLOCK_BEGIN).length,
      2,
      "a second export replaces the block instead of appending",
    );
    assert.ok(agents.endsWith(`${BLOCK_END}\n`));
    const cursor = await Deno.readTextFile(join(out, ".cursor/rules/api-workflows.mdc"));
    assert.ok(cursor.includes("## Workflow: Workflow 0"));
    assert.equal(
      await main(["export", "--out", "site", "--in", "workflows.md", "--platform", "vim"], io),
      2,
    );
    assert.match(lines.join("\n"), /Cannot export for platform "vim"/);
    assert.equal(await main(["export", "--in", "workflows.md"], io), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeRuleFiles() overwrites owned files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeRuleFiles(dir, [{
      platform: "cline",
      path: ".clinerules/api-workflows.md",
      kind: "file",
      variant: "full",
      content: "a\n",
    }]);
    await writeRuleFiles(dir, [{
      platform: "cline",
      path: ".clinerules/api-workflows.md",
      kind: "file",
      variant: "full",
      content: "b\n",
    }]);
    assert.equal(await Deno.readTextFile(join(dir, ".clinerules/api-workflows.md")), "b\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the index shows route templates, and the document's front matter stays out of rule files", () => {
  const [base] = workflows(1);
  const wf: Workflow = {
    ...base,
    steps: [{
      kind: "api",
      method: "GET",
      path: "/todos/td_0001",
      route: "/todos/:id",
      status: 200,
    }],
  };
  const markdown = renderFrontMatter({ title: "Todo API", command: "deno task docs" }) +
    renderDocument(buildDocument([wf], "Todo API"));
  const [full] = renderRuleFiles(markdown, { platforms: ["cline"], link: "workflows.md" });
  assert.ok(full.content.startsWith("# Todo API\n"), full.content.slice(0, 80));
  assert.equal(full.content.includes("deno task docs"), false);
  const index = renderIndex(markdown, "workflows.md");
  assert.match(index, /GET \/todos\/:id/);
  assert.equal(index.includes("td_0001"), false);
  assert.deepEqual(splitFrontMatter(markdown).options, {
    title: "Todo API",
    command: "deno task docs",
  });
  assert.throws(
    () => splitFrontMatter("---\nworkflows:\n  colour: red\n---\n\n# T\n"),
    /not the runner's/,
  );
});
