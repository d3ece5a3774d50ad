/**
 * A project page of a simple repository (PEP 503/691) as one plain value:
 * each file is the PEP 691 JSON file object exactly as upstream sent it
 * (hashes, `requires-python`, `yanked`, `core-metadata`/`dist-info-metadata`,
 * `upload-time`, `size`, …), with its `url` made absolute. Pages read from
 * HTML are turned into the same shape, so one filter and two renderers serve
 * both. Pure.
 *
 * @module
 */

/** One distribution file: the PEP 691 file object, `url` absolute. */
export type PageFile = Readonly<Record<string, unknown>> & {
  readonly filename: string;
  readonly url: string;
};

/** One project page. */
export interface ProjectPage {
  /** The project's name as upstream writes it. */
  readonly name: string;
  /** The `meta` object (`api-version`, …). */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly files: readonly PageFile[];
  /** PEP 700 `versions`, when upstream lists them. */
  readonly versions?: readonly string[];
  /** Any further top-level members upstream sent (kept as they are). */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** The media type of PEP 691 JSON. */
export const SIMPLE_JSON = "application/vnd.pypi.simple.v1+json";
/** The media type of PEP 691 HTML. */
export const SIMPLE_HTML = "application/vnd.pypi.simple.v1+html";

/**
 * Reads a PEP 691 JSON project page; null when it is not one. `pageUrl`
 * resolves relative file URLs.
 *
 * @example
 * ```ts
 * const page = pageFromJson({ meta: { "api-version": "1.1" }, name: "a", files: [] }, "https://x/simple/a/");
 * page?.files.length; // 0
 * ```
 */
export function pageFromJson(json: unknown, pageUrl: string): ProjectPage | null {
  if (!isObject(json) || typeof json.name !== "string" || !Array.isArray(json.files)) return null;
  const files: PageFile[] = [];
  for (const file of json.files) {
    if (!isObject(file) || typeof file.filename !== "string" || typeof file.url !== "string") {
      return null;
    }
    files.push({ ...file, url: absolute(file.url, pageUrl) } as PageFile);
  }
  const { meta, name, files: _files, versions, ...extra } = json;
  return {
    name,
    meta: isObject(meta) ? meta : { "api-version": "1.0" },
    files,
    ...(Array.isArray(versions) ? { versions: versions.map(String) } : {}),
    extra,
  };
}

const ANCHOR = /<a\s([^>]*)>([\s\S]*?)<\/a\s*>/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const META = /<meta\s([^>]*)>/gi;

/**
 * Reads a PEP 503 HTML project page into the JSON shape: the hash in the URL
 * fragment becomes `hashes`, `data-requires-python` `requires-python`,
 * `data-yanked` `yanked`, `data-core-metadata` (or the older
 * `data-dist-info-metadata`) `core-metadata` (PEP 714).
 *
 * @example
 * ```ts
 * const html = '<a href="a-1.0.tar.gz#sha256=ab" data-requires-python="&gt;=3.8">a-1.0.tar.gz</a>';
 * pageFromHtml(html, "a", "https://x/simple/a/").files[0]["requires-python"]; // ">=3.8"
 * ```
 */
export function pageFromHtml(html: string, name: string, pageUrl: string): ProjectPage {
  const files: PageFile[] = [];
  for (const [, attributeText, text] of html.matchAll(ANCHOR)) {
    const attributes = attributesOf(attributeText);
    const href = attributes.get("href");
    if (href === undefined) continue;
    const [location, fragment = ""] = href.split("#", 2);
    const file: Record<string, unknown> = {
      filename: unescapeHtml(text.replace(/<[^>]*>/g, "")).trim(),
      url: absolute(location, pageUrl),
      hashes: hashesOf(fragment),
    };
    const requires = attributes.get("data-requires-python");
    if (requires !== undefined) file["requires-python"] = requires;
    const yanked = attributes.get("data-yanked");
    if (yanked !== undefined) file.yanked = yanked === "" ? true : yanked;
    // PEP 714: the JSON shape knows only `core-metadata` (pip <= 23.0 fails on
    // a JSON `dist-info-metadata`); the older HTML attribute means the same.
    const metadata = attributes.get("data-core-metadata") ??
      attributes.get("data-dist-info-metadata");
    if (metadata !== undefined) {
      file["core-metadata"] = metadata === "true" ? true : hashesOf(metadata);
    }
    files.push(file as PageFile);
  }
  const meta: Record<string, unknown> = { "api-version": "1.0" };
  const extra: Record<string, unknown> = {};
  for (const [, attributeText] of html.matchAll(META)) {
    const attributes = attributesOf(attributeText);
    const content = attributes.get("content");
    if (content === undefined) continue;
    const metaName = attributes.get("name");
    if (metaName === "pypi:repository-version") meta["api-version"] = content;
    if (metaName === "pypi:project-status") {
      extra["project-status"] = { ...(extra["project-status"] as object), status: content };
    }
    if (metaName === "pypi:project-status-reason") {
      extra["project-status"] = { ...(extra["project-status"] as object), reason: content };
    }
  }
  return { name, meta, files, extra };
}

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, key, double, single, bare] of text.matchAll(ATTRIBUTE)) {
    attributes.set(key.toLowerCase(), unescapeHtml(double ?? single ?? bare ?? ""));
  }
  return attributes;
}

/** `sha256=ab12` → `{sha256: "ab12"}`; anything else → `{}`. */
function hashesOf(text: string): Record<string, string> {
  const match = /^([a-z0-9_]+)=([0-9a-f]+)$/i.exec(text);
  return match ? { [match[1].toLowerCase()]: match[2] } : {};
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the character references HTML attribute values and text use. */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** Escapes text for an HTML attribute value or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
