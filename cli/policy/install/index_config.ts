/**
 * The project's own installer configuration for the policy index (issue 28
 * point 5): `[[tool.uv.index]]` with `default = true`, a Poetry primary
 * source, a PDM source named `pypi` (which replaces PyPI in PDM), and for
 * pip a `pip.conf` in the project's virtual environment plus the
 * `PIP_INDEX_URL` line to export. Blocks are appended to `pyproject.toml`
 * as text, so its formatting and comments stay; every step is idempotent.
 * No credential is ever written: in org mode installers send a token as the
 * Basic password from their keyring or the environment.
 *
 * @module
 */

import { join } from "node:path";
import { isTable, parsePyproject, type Table } from "../pyproject_toml.ts";
import { readTextOrNull } from "../read_text.ts";

/** The policy index URL of a project on a server. */
export function policyIndexUrl(serverUrl: string, project: string): string {
  return `${serverUrl.replace(/\/+$/, "")}/p/${encodeURIComponent(project)}/simple/`;
}

/** One configuration step and its outcome. */
export interface IndexStep {
  what: string;
  path: string;
  written: boolean;
  note?: string;
}

function tablesAt(doc: Table, ...keys: string[]): Table[] {
  let node: unknown = doc;
  for (const key of keys.slice(0, -1)) node = isTable(node) ? node[key] : undefined;
  const list = isTable(node) ? node[keys.at(-1)!] : undefined;
  return Array.isArray(list) ? list.filter(isTable) : [];
}

interface PyprojectEntry {
  what: string;
  keys: string[];
  /** Whether an existing entry already is ours; a string: a conflicting entry, why. */
  check(entries: Table[], url: string): boolean | string;
  block(url: string): string;
}

const ENTRIES: PyprojectEntry[] = [
  {
    what: "uv index",
    keys: ["tool", "uv", "index"],
    check: (entries, url) =>
      entries.some((e) => e.url === url && e.default === true) ||
      (entries.some((e) => e.default === true) ? "another uv index is the default" : false),
    block: (url) => `[[tool.uv.index]]\nname = "policyd"\nurl = "${url}"\ndefault = true\n`,
  },
  {
    what: "Poetry source",
    keys: ["tool", "poetry", "source"],
    check: (entries, url) =>
      entries.some((e) => e.url === url && e.priority === "primary") ||
      (entries.some((e) => e.name === "policyd") ? "a source named policyd exists" : false),
    block: (url) =>
      `[[tool.poetry.source]]\nname = "policyd"\nurl = "${url}"\npriority = "primary"\n`,
  },
  {
    what: "PDM source",
    keys: ["tool", "pdm", "source"],
    check: (entries, url) =>
      entries.some((e) => e.name === "pypi" && e.url === url) ||
      (entries.some((e) => e.name === "pypi") ? "a PDM source named pypi exists" : false),
    block: (url) => `[[tool.pdm.source]]\nname = "pypi"\nurl = "${url}"\nverify_ssl = true\n`,
  },
];

/** Writes the uv, Poetry and PDM entries into `pyproject.toml`. */
function pyprojectSteps(root: string, url: string): IndexStep[] {
  const path = join(root, "pyproject.toml");
  const original = readTextOrNull(path);
  if (original === null) {
    return [{
      what: "uv, Poetry and PDM sources",
      path,
      written: false,
      note: "no pyproject.toml",
    }];
  }
  let text: string = original;
  const steps: IndexStep[] = [];
  for (const entry of ENTRIES) {
    const found = entry.check(tablesAt(parsePyproject(text), ...entry.keys), url);
    if (found !== false) {
      steps.push({
        what: entry.what,
        path,
        written: false,
        note: found === true ? undefined : `${found}; left alone`,
      });
      continue;
    }
    const next: string = `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}\n${
      entry.block(url)
    }`;
    parsePyproject(next); // never write a file that does not parse
    text = next;
    steps.push({ what: entry.what, path, written: true });
  }
  if (steps.some((s) => s.written)) Deno.writeTextFileSync(path, text);
  return steps;
}

/** Writes `.venv/pip.conf` with the index URL when the project has a `.venv`. */
function pipStep(root: string, url: string): IndexStep {
  const venv = join(root, ".venv");
  const path = join(venv, "pip.conf");
  try {
    if (!Deno.statSync(venv).isDirectory) throw new Error();
  } catch {
    return { what: "pip configuration", path, written: false, note: "no .venv in the project" };
  }
  const current = readTextOrNull(path) ?? "";
  const line = `index-url = ${url}`;
  if (current.split("\n").some((l) => l.trim() === line)) {
    return { what: "pip configuration", path, written: false };
  }
  const kept = current.split("\n").filter((l) =>
    l.trim() && !/^\s*index-url\s*=/.test(l) && l.trim() !== "[global]"
  );
  Deno.writeTextFileSync(path, ["[global]", line, ...kept, ""].join("\n"));
  return { what: "pip configuration", path, written: true };
}

/**
 * Configures the project's installers to resolve through the policy index.
 *
 * @example
 * ```ts
 * const steps = installIndexConfig("/work/app", "http://127.0.0.1:8000/p/app/simple/");
 * steps.map((s) => s.what); // ["uv index", "Poetry source", "PDM source", "pip configuration"]
 * ```
 */
export function installIndexConfig(root: string, url: string): IndexStep[] {
  return [...pyprojectSteps(root, url), pipStep(root, url)];
}

/** Which installers of a project resolve through policyd, and which do not. */
export interface IndexResolution {
  through: string[];
  elsewhere: string[];
}

/**
 * Reads the project's installer configuration: an installer resolves
 * through policyd when its index URL starts with the server's URL.
 */
export function indexResolution(
  root: string,
  serverUrl: string,
  env: (name: string) => string | undefined,
): IndexResolution {
  const ours = (url: unknown) =>
    typeof url === "string" && url.startsWith(serverUrl.replace(/\/+$/, "") + "/");
  const through: string[] = [];
  const elsewhere: string[] = [];
  const text = readTextOrNull(join(root, "pyproject.toml"));
  let doc: Table = {};
  try {
    doc = text === null ? {} : parsePyproject(text);
  } catch {
    doc = {};
  }
  const sort = (name: string, yes: boolean) => (yes ? through : elsewhere).push(name);
  sort("uv", tablesAt(doc, "tool", "uv", "index").some((e) => e.default === true && ours(e.url)));
  sort(
    "Poetry",
    tablesAt(doc, "tool", "poetry", "source").some((e) => e.priority === "primary" && ours(e.url)),
  );
  sort("PDM", tablesAt(doc, "tool", "pdm", "source").some((e) => e.name === "pypi" && ours(e.url)));
  const pipConf = readTextOrNull(join(root, ".venv", "pip.conf")) ?? "";
  const pipUrl = env("PIP_INDEX_URL") ?? /^\s*index-url\s*=\s*(\S+)/m.exec(pipConf)?.[1];
  sort("pip", ours(pipUrl?.replace(/\/\/[^/@]*@/, "//")));
  return { through, elsewhere };
}
