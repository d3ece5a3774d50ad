/**
 * A fake of the two upstream internet services, OSV and the PyPI JSON API,
 * as a real loopback HTTP server (`Deno.serve` on port 0) serving the real
 * records in `tests/fixtures` (see its README for the mapping). Tests point
 * `OSV_API_URL` and `PYPI_URL` at {@link FakeUpstream.url}.
 *
 * Beyond the fixtures it can: paginate OSV answers past a page size, fail
 * (HTTP 500), hang, answer malformed JSON, add latency, count calls per route,
 * and hold synthetic packages and records for scale tests. Its version
 * matching is written independently of `src/core/affected.ts`, so a bug
 * there is not mirrored here.
 *
 * @module
 */
import { compare, valid } from "@renovatebot/pep440";

/** How a service answers. */
export type FaultMode = "ok" | "error500" | "hang" | "malformed";

/** Routes whose calls are counted. */
export type Route =
  | "osv.query"
  | "osv.querybatch"
  | "osv.vulns"
  | "pypi.project"
  | "pypi.release"
  | "other";

/** Per-service switches, changeable at any time during a test. */
export interface ServiceControls {
  mode: FaultMode;
  /** Added before every answer of this service. */
  latencyMs: number;
}

/** Options of {@link startFakeUpstream}. */
export interface FakeUpstreamOptions {
  /** Load the fixture files (default true). */
  fixtures?: boolean;
  /** OSV page size of `/v1/query` and of each `/v1/querybatch` query (default 1000). */
  pageSize?: number;
  /** Whether withdrawn records are returned (default true: the client must drop them). */
  includeWithdrawn?: boolean;
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** A running fake upstream. */
export interface FakeUpstream {
  /** Base URL for both `OSV_API_URL` and `PYPI_URL`. */
  readonly url: string;
  readonly osv: ServiceControls;
  readonly pypi: ServiceControls;
  /** OSV page size; may be changed during a test. */
  pageSize: number;
  /** Calls per route since start or the last {@link FakeUpstream.resetCalls}. */
  readonly calls: Record<Route, number>;
  /** Every `/v1/vulns/{id}` id requested, in order. */
  readonly vulnIdsFetched: string[];
  resetCalls(): void;
  /** Adds (or replaces, by id) an OSV record. */
  addOsvRecord(record: Json): void;
  /** Adds a PyPI project response; with `version`, a release-level response. */
  addPypiResponse(name: string, response: Json, version?: string): void;
  /** Adds `count` synthetic packages; see {@link SyntheticOptions}. Returns their names. */
  addSyntheticPackages(count: number, options?: SyntheticOptions): string[];
  close(): Promise<void>;
}

/** Shape of synthetic data for scale tests. */
export interface SyntheticOptions {
  prefix?: string;
  /** Every n-th package gets vulnerabilities (0 = none). Default 10. */
  vulnerableEvery?: number;
  /** Each vulnerable package gets a PYSEC record and a GHSA twin that alias each other. */
  withTwins?: boolean;
  /** CVSS vector of the synthetic records. Default a 9.8. */
  vector?: string;
}

const FIXTURES = new URL("../fixtures/", import.meta.url);

/** PEP 503 normalisation (kept local: the fake shares no code with the service). */
function norm(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

function cmp(a: string, b: string): number | null {
  if (valid(a) === null || valid(b) === null) return null;
  return compare(a, b);
}

/** Whether `version` lies in one ECOSYSTEM range, walking events as intervals. */
function inEcosystemRange(events: Json[], version: string): boolean {
  let start: string | null = null;
  for (const event of events) {
    if (event.introduced !== undefined) {
      start = event.introduced;
      continue;
    }
    if (start === null) continue;
    const lowOk = start === "0" || (cmp(version, start) ?? -1) >= 0;
    if (event.fixed !== undefined) {
      if (lowOk && (cmp(version, event.fixed) ?? 1) < 0) return true;
      start = null;
    } else if (event.last_affected !== undefined) {
      if (lowOk && (cmp(version, event.last_affected) ?? 1) <= 0) return true;
      start = null;
    }
  }
  return start !== null && (start === "0" || (cmp(version, start) ?? -1) >= 0);
}

function affects(record: Json, name: string, version: string | undefined): boolean {
  return (record.affected ?? []).some((a: Json) => {
    if (a.package?.ecosystem !== "PyPI" || norm(a.package?.name ?? "") !== name) return false;
    if (version === undefined) return true;
    if ((a.versions ?? []).includes(version)) return true;
    return (a.ranges ?? []).some((r: Json) =>
      r.type === "ECOSYSTEM" && inEcosystemRange(r.events ?? [], version)
    );
  });
}

async function loadFixtures(
  osvById: Map<string, Json>,
  pypiProjects: Map<string, Json>,
  pypiReleases: Map<string, Map<string, Json>>,
): Promise<void> {
  const vulnDir = new URL("osv/vulns/", FIXTURES);
  for await (const entry of Deno.readDir(vulnDir)) {
    if (!entry.name.endsWith(".json")) continue;
    const record = JSON.parse(await Deno.readTextFile(new URL(entry.name, vulnDir)));
    osvById.set(record.id, record);
  }
  const pypiDir = new URL("pypi/", FIXTURES);
  for await (const entry of Deno.readDir(pypiDir)) {
    if (entry.isFile && entry.name.endsWith(".json")) {
      const text = await Deno.readTextFile(new URL(entry.name, pypiDir));
      pypiProjects.set(entry.name.slice(0, -5), JSON.parse(text));
    } else if (entry.isDirectory) {
      const releases = new Map<string, Json>();
      const dir = new URL(`${entry.name}/`, pypiDir);
      for await (const file of Deno.readDir(dir)) {
        if (!file.name.endsWith(".json")) continue;
        releases.set(
          file.name.slice(0, -5),
          JSON.parse(await Deno.readTextFile(new URL(file.name, dir))),
        );
      }
      pypiReleases.set(entry.name, releases);
    }
  }
}

/**
 * Starts the fake upstream on a free loopback port.
 *
 * @example
 * ```ts
 * const upstream = await startFakeUpstream({ pageSize: 5 });
 * const env = { OSV_API_URL: upstream.url, PYPI_URL: upstream.url };
 * // … test …
 * await upstream.close();
 * ```
 */
export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const osvById = new Map<string, Json>();
  const osvByPackage = new Map<string, Set<string>>();
  const pypiProjects = new Map<string, Json>();
  const pypiReleases = new Map<string, Map<string, Json>>();
  if (options.fixtures ?? true) await loadFixtures(osvById, pypiProjects, pypiReleases);
  const includeWithdrawn = options.includeWithdrawn ?? true;

  const index = (record: Json) => {
    for (const a of record.affected ?? []) {
      if (a.package?.ecosystem !== "PyPI") continue;
      const name = norm(a.package.name ?? "");
      if (!osvByPackage.has(name)) osvByPackage.set(name, new Set());
      osvByPackage.get(name)!.add(record.id);
    }
  };
  for (const record of osvById.values()) index(record);
  const addOsvRecord = (record: Json) => {
    osvById.set(record.id, record);
    index(record);
  };

  const closing = Promise.withResolvers<void>();
  const calls = {} as Record<Route, number>;
  const resetCalls = () => {
    for (
      const r of [
        "osv.query",
        "osv.querybatch",
        "osv.vulns",
        "pypi.project",
        "pypi.release",
        "other",
      ] as Route[]
    ) {
      calls[r] = 0;
    }
    vulnIdsFetched.length = 0;
  };
  const vulnIdsFetched: string[] = [];
  resetCalls();

  const upstream = {
    osv: { mode: "ok", latencyMs: 0 } as ServiceControls,
    pypi: { mode: "ok", latencyMs: 0 } as ServiceControls,
    pageSize: options.pageSize ?? 1000,
  };

  const matching = (name: string, version: string | undefined): Json[] =>
    [...(osvByPackage.get(norm(name)) ?? [])]
      .sort()
      .map((id) => osvById.get(id))
      .filter((r) => includeWithdrawn || !r.withdrawn)
      .filter((r) => affects(r, norm(name), version));

  const page = (items: Json[], token: string | undefined) => {
    const offset = token?.startsWith("page:") ? Number(token.slice(5)) || 0 : 0;
    const slice = items.slice(offset, offset + upstream.pageSize);
    const next = offset + upstream.pageSize < items.length
      ? `page:${offset + upstream.pageSize}`
      : undefined;
    return { slice, next };
  };

  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  async function handleOsv(req: Request, path: string): Promise<Response> {
    if (req.method === "POST" && path === "/v1/query") {
      calls["osv.query"]++;
      const body = await req.json();
      const { slice, next } = page(
        matching(body.package?.name ?? "", body.version),
        body.page_token,
      );
      if (slice.length === 0 && next === undefined) return json({});
      return json({ vulns: slice, ...(next ? { next_page_token: next } : {}) });
    }
    if (req.method === "POST" && path === "/v1/querybatch") {
      calls["osv.querybatch"]++;
      const body = await req.json();
      if ((body.queries ?? []).length > 1000) {
        return json({ code: 3, message: "Too many queries." }, 400);
      }
      const results = (body.queries ?? []).map((q: Json) => {
        const { slice, next } = page(matching(q.package?.name ?? "", q.version), q.page_token);
        const vulns = slice.map((r: Json) => ({ id: r.id, modified: r.modified }));
        return { ...(vulns.length ? { vulns } : {}), ...(next ? { next_page_token: next } : {}) };
      });
      return json({ results });
    }
    const vuln = path.match(/^\/v1\/vulns\/([^/]+)$/);
    if (req.method === "GET" && vuln) {
      calls["osv.vulns"]++;
      const id = decodeURIComponent(vuln[1]);
      vulnIdsFetched.push(id);
      const record = osvById.get(id);
      return record ? json(record) : json({ code: 5, message: "Bug not found." }, 404);
    }
    calls.other++;
    return json({ message: "Not Found" }, 404);
  }

  function handlePypi(path: string): Response {
    const project = path.match(/^\/pypi\/([^/]+)\/json\/?$/);
    if (project) {
      calls["pypi.project"]++;
      const name = norm(decodeURIComponent(project[1]));
      const found = pypiProjects.get(name);
      if (found) return json(found);
      const releases = pypiReleases.get(name);
      // Fallback: a package stored only at release level answers with its single release.
      if (releases?.size === 1) return json([...releases.values()][0]);
      return json({ message: "Not Found" }, 404);
    }
    const release = path.match(/^\/pypi\/([^/]+)\/([^/]+)\/json\/?$/);
    if (release) {
      calls["pypi.release"]++;
      const name = norm(decodeURIComponent(release[1]));
      const found = pypiReleases.get(name)?.get(decodeURIComponent(release[2]));
      return found ? json(found) : json({ message: "Not Found" }, 404);
    }
    calls.other++;
    return json({ message: "Not Found" }, 404);
  }

  async function handler(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const isOsv = path.startsWith("/v1/");
    const controls = isOsv ? upstream.osv : upstream.pypi;
    const answer = isOsv ? await handleOsv(req, path) : handlePypi(path);
    if (controls.latencyMs > 0) await abortableDelay(controls.latencyMs, closing.promise);
    switch (controls.mode) {
      case "error500":
        return json({ message: "Internal Server Error" }, 500);
      case "malformed":
        return new Response('{"vulns": [{"id": "GHSA-', {
          headers: { "content-type": "application/json" },
        });
      case "hang":
        await closing.promise; // until close(): a client gives up through its own time-out
        return json({ message: "gave up" }, 504);
      default:
        return answer;
    }
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const { port } = server.addr as Deno.NetAddr;

  return {
    url: `http://127.0.0.1:${port}`,
    osv: upstream.osv,
    pypi: upstream.pypi,
    get pageSize() {
      return upstream.pageSize;
    },
    set pageSize(n: number) {
      upstream.pageSize = n;
    },
    calls,
    vulnIdsFetched,
    resetCalls,
    addOsvRecord,
    addPypiResponse(name: string, response: Json, version?: string) {
      const key = norm(name);
      if (version === undefined) {
        pypiProjects.set(key, response);
      } else {
        if (!pypiReleases.has(key)) pypiReleases.set(key, new Map());
        pypiReleases.get(key)!.set(version, response);
      }
    },
    addSyntheticPackages(count: number, synthetic: SyntheticOptions = {}) {
      const prefix = synthetic.prefix ?? "synthetic-pkg-";
      const every = synthetic.vulnerableEvery ?? 10;
      const vector = synthetic.vector ?? "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H";
      const names: string[] = [];
      for (let i = 0; i < count; i++) {
        const name = `${prefix}${i}`;
        names.push(name);
        pypiProjects.set(norm(name), {
          info: {
            name,
            version: "1.0.0",
            license: "MIT",
            license_expression: null,
            classifiers: [],
          },
        });
        if (every <= 0 || i % every !== 0) continue;
        const pysec = `PYSEC-9999-${prefix}${i}`;
        const ghsa = `GHSA-synt-${i.toString(36).padStart(4, "0")}-${prefix.length}`;
        const affected = [{
          package: { ecosystem: "PyPI", name },
          ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "2.0.0" }] }],
        }];
        const base = {
          modified: "2026-01-01T00:00:00Z",
          published: "2026-01-01T00:00:00Z",
          affected,
        };
        addOsvRecord({
          id: pysec,
          aliases: synthetic.withTwins ? [ghsa, `CVE-2099-${100000 + i}`] : [],
          severity: [{ type: "CVSS_V3", score: vector }],
          ...base,
        });
        if (synthetic.withTwins) {
          addOsvRecord({
            id: ghsa,
            aliases: [`CVE-2099-${100000 + i}`],
            summary: `synthetic vulnerability ${i}`,
            database_specific: { severity: "CRITICAL" },
            ...base,
          });
        }
      }
      return names;
    },
    async close() {
      closing.resolve();
      await server.shutdown();
    },
  };
}

function abortableDelay(ms: number, closing: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
    closing,
  ]).finally(() => clearTimeout(timer));
}
