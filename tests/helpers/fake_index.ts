/**
 * A loopback upstream simple index (PEP 503 HTML and PEP 691 JSON by
 * `Accept`, ETag revalidation) serving real wheels built offline by
 * `build_wheels.py` with Debian's Python (`/usr/bin/python3`). Tests point `INDEX_UPSTREAM_URL` at
 * {@link FakeIndex.simpleUrl}.
 *
 * @module
 */
import { createHash } from "node:crypto";

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** One wheel to build. */
export interface WheelSpec {
  name: string;
  version: string;
  requires?: string[];
  /** PEP 700 upload time; default 2024-01-01. */
  uploadTime?: string;
  /** PEP 592 yank (true or a reason). */
  yanked?: boolean | string;
}

/** A running fake index. */
export interface FakeIndex {
  /** `http://127.0.0.1:port/simple/` */
  readonly simpleUrl: string;
  /** Requests by kind since start. */
  readonly calls: { pages: number; notModified: number; files: number };
  /** The wheel files by name (bytes). */
  readonly files: ReadonlyMap<string, Uint8Array<ArrayBuffer>>;
  close(): Promise<void>;
}

const BUILDER = new URL("./build_wheels.py", import.meta.url);

function normalize(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/** Options of {@link startFakeIndex}. */
export interface FakeIndexOptions {
  /** Serve PEP 503 HTML whatever the `Accept` (an index without PEP 691). */
  htmlOnly?: boolean;
}

/** Builds the wheels (Debian's `python3`) and serves them. */
export async function startFakeIndex(
  specs: WheelSpec[],
  options: FakeIndexOptions = {},
): Promise<FakeIndex> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-wheels-" });
  const child = new Deno.Command("/usr/bin/python3", {
    args: [BUILDER.pathname, dir],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(specs)));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const names = new TextDecoder().decode(out.stdout).trim().split("\n");
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const projects = new Map<string, Array<Record<string, unknown>>>();
  for (const [i, filename] of names.entries()) {
    const bytes = await Deno.readFile(`${dir}/${filename}`);
    files.set(filename, bytes);
    files.set(`${filename}.metadata`, await Deno.readFile(`${dir}/${filename}.metadata`));
    const spec = specs[i];
    const sha256 = sha256Of(bytes);
    const metadata = files.get(`${filename}.metadata`)!;
    const metaHash = sha256Of(metadata);
    const list = projects.get(normalize(spec.name)) ?? [];
    list.push({
      filename,
      url: `../../packages/${filename}`,
      hashes: { sha256 },
      "requires-python": ">=3.7",
      "core-metadata": { sha256: metaHash },
      "upload-time": spec.uploadTime ?? "2024-01-01T00:00:00.000000Z",
      size: bytes.length,
      ...(spec.yanked !== undefined ? { yanked: spec.yanked } : {}),
    });
    projects.set(normalize(spec.name), list);
  }
  await Deno.remove(dir, { recursive: true });
  const calls = { pages: 0, notModified: 0, files: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    const file = /^\/packages\/([^/]+)$/.exec(path);
    if (file) {
      calls.files++;
      const bytes = files.get(decodeURIComponent(file[1]));
      return bytes
        ? new Response(bytes, { headers: { "content-type": "application/octet-stream" } })
        : new Response("not found", { status: 404 });
    }
    const page = /^\/simple\/([^/]+)\/$/.exec(path);
    const list = page ? projects.get(page[1]) : undefined;
    if (!page || !list) return new Response("not found", { status: 404 });
    calls.pages++;
    const etag = `"${page[1]}-${list.length}"`;
    if (request.headers.get("if-none-match") === etag) {
      calls.notModified++;
      return new Response(null, { status: 304, headers: { etag } });
    }
    const json = !options.htmlOnly &&
      (request.headers.get("accept") ?? "").includes("vnd.pypi.simple.v1+json");
    if (json) {
      const body = {
        meta: { "api-version": "1.1" },
        name: page[1],
        files: list,
        versions: [...new Set(list.map((f) => String(f.filename).split("-")[1]))],
      };
      return new Response(JSON.stringify(body), {
        headers: { "content-type": "application/vnd.pypi.simple.v1+json", etag },
      });
    }
    const anchors = list.map((f) =>
      `<a href="${f.url}#sha256=${(f.hashes as { sha256: string }).sha256}" ` +
      `data-requires-python="&gt;=3.7">${f.filename}</a><br/>`
    );
    return new Response(
      `<!DOCTYPE html><html><body><h1>Links for ${page[1]}</h1>${anchors.join("\n")}</body></html>`,
      { headers: { "content-type": "text/html", etag } },
    );
  });
  const simpleUrl = `http://127.0.0.1:${server.addr.port}/simple/`;
  return {
    simpleUrl,
    calls,
    files,
    async close() {
      await server.shutdown();
    },
  };
}
