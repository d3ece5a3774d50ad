/**
 * Real threat data for tests (tests/fixtures/threats): malicious-package
 * advisories for the loopback OSV, hallucinated names from the published
 * research, and a young project for the loopback PyPI made from a real
 * project document with its upload times moved (the one change, so a
 * "first released yesterday" stays yesterday whenever the test runs).
 *
 * @module
 */
import type { FakeUpstream } from "./fake_upstream.ts";

const THREATS = new URL("../fixtures/threats/", import.meta.url);
const PYPI = new URL("../fixtures/pypi/", import.meta.url);

// deno-lint-ignore no-explicit-any
type Json = any;

/** Reads one advisory of `tests/fixtures/threats/mal/`. */
export async function maliciousRecord(id: string): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(new URL(`mal/${id}.json`, THREATS)));
}

/** Serves the named advisories from the loopback OSV. */
export async function serveMalicious(upstream: FakeUpstream, ids: string[]): Promise<void> {
  for (const id of ids) upstream.addOsvRecord(await maliciousRecord(id));
}

/**
 * The hallucinated Python names of `hallucinations.md` ("Example
 * hallucinated Python package names"): every backquoted plain name.
 */
export async function hallucinatedNames(): Promise<string[]> {
  const text = await Deno.readTextFile(new URL("hallucinations.md", THREATS));
  const section = text.slice(text.indexOf("## Example hallucinated Python package names"));
  const names = [...section.matchAll(/`([a-z0-9][a-z0-9-]*)`/g)].map((m) => m[1]);
  return [...new Set(names)];
}

/**
 * A PyPI project document for `name`: the real document of `source`
 * (tests/fixtures/pypi) with every upload time set to `uploadedAt`.
 */
export async function youngProject(source: string, name: string, uploadedAt: Date): Promise<Json> {
  const doc = JSON.parse(await Deno.readTextFile(new URL(`${source}.json`, PYPI)));
  const iso = uploadedAt.toISOString();
  const move = (files: Json[] | null | undefined) =>
    (files ?? []).map((f: Json) => ({
      ...f,
      upload_time_iso_8601: iso,
      upload_time: iso.slice(0, 19),
    }));
  return {
    ...doc,
    info: { ...doc.info, name },
    urls: move(doc.urls),
    releases: Object.fromEntries(
      Object.entries(doc.releases ?? {}).map(([v, files]) => [v, move(files as Json[])]),
    ),
  };
}
