/**
 * Renders a (filtered) project page as PEP 691 JSON or PEP 503 HTML, with
 * every file URL pointing at policyd's file route. Everything else of a file
 * is what upstream sent. Pure.
 *
 * @module
 */
import { escapeHtml, type PageFile, type ProjectPage } from "./page.ts";

/**
 * The URL of a file on policyd, relative to a project page
 * (`/simple/{name}/` or `/p/{project}/simple/{name}/`), so it works behind
 * any path prefix.
 *
 * @example
 * ```ts
 * fileHref("requests", "requests-2.32.3.tar.gz"); // "../../files/requests/requests-2.32.3.tar.gz"
 * ```
 */
export function fileHref(name: string, filename: string): string {
  return `../../files/${name}/${encodeURIComponent(filename)}`;
}

/** The page as PEP 691 JSON text; `name` is the normalised project name. */
export function renderJson(page: ProjectPage, name: string): string {
  return JSON.stringify({
    meta: page.meta,
    name: page.name,
    files: page.files.map((f) => ({ ...f, url: fileHref(name, f.filename) })),
    ...(page.versions ? { versions: page.versions } : {}),
    ...page.extra,
  });
}

function fragmentOf(file: PageFile): string {
  const hashes = file.hashes as Record<string, string> | undefined;
  if (!hashes) return "";
  const algorithm = "sha256" in hashes ? "sha256" : Object.keys(hashes)[0];
  return algorithm ? `#${algorithm}=${hashes[algorithm]}` : "";
}

function metadataAttribute(value: unknown): string | null {
  if (value === true) return "true";
  if (value && typeof value === "object") {
    const hashes = value as Record<string, string>;
    const algorithm = "sha256" in hashes ? "sha256" : Object.keys(hashes)[0];
    return algorithm ? `${algorithm}=${hashes[algorithm]}` : "true";
  }
  return null;
}

function anchorOf(file: PageFile, name: string): string {
  const attributes = [`href="${escapeHtml(fileHref(name, file.filename) + fragmentOf(file))}"`];
  const requires = file["requires-python"];
  if (typeof requires === "string") {
    attributes.push(`data-requires-python="${escapeHtml(requires)}"`);
  }
  // PEP 714: both attributes in HTML, for installers that know only the older one.
  const metadata = metadataAttribute(file["core-metadata"] ?? file["dist-info-metadata"]);
  if (metadata !== null) {
    attributes.push(`data-dist-info-metadata="${escapeHtml(metadata)}"`);
    attributes.push(`data-core-metadata="${escapeHtml(metadata)}"`);
  }
  const yanked = file.yanked;
  if (yanked === true) attributes.push(`data-yanked=""`);
  else if (typeof yanked === "string" && yanked !== "") {
    attributes.push(`data-yanked="${escapeHtml(yanked)}"`);
  }
  return `    <a ${attributes.join(" ")}>${escapeHtml(file.filename)}</a><br />`;
}

/** The page as PEP 503 HTML; `name` is the normalised project name. */
export function renderHtml(page: ProjectPage, name: string): string {
  const status = page.extra["project-status"] as { status?: string; reason?: string } | undefined;
  const head = [
    `    <meta name="pypi:repository-version" content="${
      escapeHtml(String(page.meta["api-version"] ?? "1.0"))
    }">`,
    ...(status?.status
      ? [`    <meta name="pypi:project-status" content="${escapeHtml(status.status)}">`]
      : []),
    ...(status?.reason
      ? [`    <meta name="pypi:project-status-reason" content="${escapeHtml(status.reason)}">`]
      : []),
    `    <title>Links for ${escapeHtml(page.name)}</title>`,
  ];
  return [
    "<!DOCTYPE html>",
    "<html>",
    "  <head>",
    ...head,
    "  </head>",
    "  <body>",
    `    <h1>Links for ${escapeHtml(page.name)}</h1>`,
    ...page.files.map((f) => anchorOf(f, name)),
    "  </body>",
    "</html>",
    "",
  ].join("\n");
}

/** The root listing (`/simple/`) as PEP 691 JSON text. */
export function renderRootJson(names: readonly string[]): string {
  return JSON.stringify({
    meta: { "api-version": "1.0" },
    projects: names.map((name) => ({ name })),
  });
}

/** The root listing (`/simple/`) as PEP 503 HTML. */
export function renderRootHtml(names: readonly string[]): string {
  return [
    "<!DOCTYPE html>",
    "<html>",
    "  <head>",
    '    <meta name="pypi:repository-version" content="1.0">',
    "    <title>Simple index</title>",
    "  </head>",
    "  <body>",
    ...names.map((n) => `    <a href="${escapeHtml(n)}/">${escapeHtml(n)}</a><br />`),
    "  </body>",
    "</html>",
    "",
  ].join("\n");
}
