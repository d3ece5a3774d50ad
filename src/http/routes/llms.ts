/**
 * `GET /llms.txt` and `GET /docs/:page` at the server root: the llms.txt
 * index (https://llmstxt.org) an AI assistant reads first — what policyd is,
 * then links to the workflow document (conventions first), the OpenAPI
 * description and the documentation pages, which are served as Markdown from
 * `docs/` (shipped with `deno compile --include docs`). Public, like the other
 * documents.
 *
 * @module
 */
import { Hono } from "hono";
import { DocsPageParamsSchema, docsPageRoute, fullPath, llmsTxtRoute } from "../../api/mod.ts";
import { documentResponse } from "@policyd/workflows/serve";
import type { AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";

/** The documentation folder. */
export const DOCS_URL = new URL("../../../docs/", import.meta.url);

/** One documentation page as listed in llms.txt. */
export interface DocsPage {
  file: string;
  title: string;
  summary: string;
}

/** Title (first `# ` line) and first sentence of a Markdown page. */
export function describePage(file: string, markdown: string): DocsPage {
  const lines = markdown.split("\n");
  const title = lines.find((line) => line.startsWith("# "))?.slice(2).replace(/`/g, "").trim() ??
    file;
  const start = lines.findIndex((line) => line.startsWith("# ")) + 1;
  const paragraph: string[] = [];
  for (const line of lines.slice(start)) {
    if (line.trim() === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    if (/^(#|\||```|>|[-*] )/.test(line)) break;
    paragraph.push(line.trim());
  }
  const text = paragraph.join(" ");
  const sentence = /^.*?\.(?=\s|$)/.exec(text)?.[0] ?? text;
  return { file, title, summary: sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence };
}

/** The documentation pages, sorted by file name. */
export async function listDocs(dir: URL = DOCS_URL): Promise<DocsPage[]> {
  const pages: DocsPage[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !/^[a-z][a-z0-9_-]*\.md$/.test(entry.name)) continue;
      pages.push(describePage(entry.name, await Deno.readTextFile(new URL(entry.name, dir))));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return pages.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** Renders llms.txt for a server reachable at `origin`. */
export function renderLlmsTxt(origin: string, docs: readonly DocsPage[]): string {
  const link = (path: string) => new URL(path, origin).href;
  const lines = [
    "# policyd",
    "",
    "> policyd answers whether a project may use a Python package (at a version): ALLOWED, DENIED " +
    "or PROVISIONALLY_ALLOWED, from a git-reviewed registry of package rules, OSV vulnerability data " +
    "and PyPI licence data, and writes every decision to an audit log.",
    "",
    "Before writing code that calls the API, read the workflows document: it opens with the API's " +
    "conventions (base path, authentication, error format, headers, enumerations), and every " +
    "workflow in it is a call sequence with the real request and response payloads of a test that " +
    "passed. Use only the endpoints, parameters and call order it shows.",
    "",
    "## API",
    "",
    `- [Workflows](${
      link("/api/v1/workflows.md")
    }): conventions, then test-verified call sequences with payloads; start here`,
    `- [Workflows as JSON](${link("/api/v1/workflows.json")}): the same document as JSON`,
    `- [OpenAPI](${
      link("/api/v1/openapi.json")
    }): OpenAPI 3.1 description of every route, generated from the wire contract`,
  ];
  if (docs.length > 0) {
    lines.push("", "## Docs", "");
    for (const page of docs) {
      lines.push(`- [${page.title}](${link(`/docs/${page.file}`)}): ${page.summary}`);
    }
  }
  lines.push(
    "",
    "## Optional",
    "",
    `- [Health](${
      link("/api/v1/health")
    }): liveness, version, registry version and the configured proposer`,
  );
  return lines.join("\n") + "\n";
}

/** A page's text; undefined when it cannot be read (no such file, a name the file system refuses). */
async function readPage(url: URL): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(url);
  } catch {
    return undefined;
  }
}

/** The routes, mounted at the server root. */
export function llmsRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get(llmsTxtRoute.path, async (c) => {
    const origin = new URL(c.req.url).origin;
    return documentResponse(
      c.req.raw,
      renderLlmsTxt(origin, await listDocs()),
      "text/markdown; charset=utf-8",
    );
  });
  routes.get(docsPageRoute.path, async (c) => {
    const parsed = DocsPageParamsSchema.safeParse({ page: c.req.param("page") });
    const text = parsed.success ? await readPage(new URL(parsed.data.page, DOCS_URL)) : undefined;
    if (text === undefined) {
      throw new ProblemError(
        404,
        "not-found",
        `no documentation page ${c.req.path}; see /llms.txt`,
      );
    }
    return documentResponse(c.req.raw, text, "text/markdown; charset=utf-8");
  });
  return routes;
}

/** The path prefix of the documentation pages (public, like the other documents). */
export const PUBLIC_DOCS_PREFIX = fullPath(docsPageRoute).replace(/:page$/, "");
