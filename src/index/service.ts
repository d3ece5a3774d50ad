/**
 * The policy index service: a project page decided version by version
 * (facts gathered once per page), and downloads checked against the decided
 * page, each one audited (source `index`) before a byte is sent.
 *
 * @module
 */
import { registryVerdict } from "../core/evaluate.ts";
import type { Decision, RegistrySnapshot } from "../core/types.ts";
import { auditRowOf, type CallContext } from "../evaluation/service.ts";
import type { LicenseSource, VulnerabilitySource } from "../lookups/types.ts";
import type { LiveRegistry } from "../registry/live.ts";
import type { AuditStore } from "../store/types.ts";
import {
  decidePage,
  type PageDecision,
  type ProjectDenial,
  projectDenialOf,
  type ProjectFacts,
} from "./decide_page.ts";
import { versionOfFile } from "./filename.ts";
import type { ProjectPage } from "./page.ts";
import type { UpstreamIndex } from "./upstream.ts";

/** Dependencies of {@link createIndexService}. */
export interface IndexServiceDeps {
  upstream: UpstreamIndex;
  registry: Pick<LiveRegistry, "current">;
  vulnerabilities: VulnerabilitySource;
  licenses: LicenseSource;
  audit: AuditStore;
  now?: () => Date;
}

/** A decided page, or why there is none. */
export type IndexPage =
  | { status: "ok"; decided: PageDecision }
  /** The registry denies the project whatever its versions: decided without any upstream call. */
  | { status: "denied"; denied: ProjectDenial }
  | { status: "not-found" }
  | { status: "unavailable"; detail: string };

/** What a download request comes to. */
export type Download =
  | { status: "ok"; response: Response }
  | { status: "denied"; reason: string }
  | { status: "not-found"; detail: string }
  | { status: "unavailable"; detail: string };

/** The policy index. */
export interface IndexService {
  /** The decided page of a project (normalised name). */
  page(name: string): Promise<IndexPage>;
  /**
   * A file of a project (or its PEP 658 `.metadata`), when its version is
   * allowed. With `headOnly`, only the decision: nothing is fetched or audited.
   */
  download(
    name: string,
    filename: string,
    context: CallContext,
    headOnly?: boolean,
  ): Promise<Download>;
}

interface Memo {
  snapshot: RegistrySnapshot;
  facts: ProjectFacts;
  decided: PageDecision;
}

/**
 * Creates the index service.
 *
 * @example
 * ```ts
 * declare const deps: IndexServiceDeps;
 * const index = createIndexService(deps);
 * const answer = await index.page("requests");
 * ```
 */
export function createIndexService(deps: IndexServiceDeps): IndexService {
  const now = deps.now ?? (() => new Date());
  // Pages and facts served from the in-process cache are the same read-only
  // objects on every hit: a page decided from the same page, snapshot and
  // facts is reused until its clock inputs change (like evaluations).
  const memo = new WeakMap<ProjectPage, Memo>();

  // The registry's own verdict on a project depends on the snapshot alone.
  let verdicts = {
    snapshot: null as RegistrySnapshot | null,
    of: new Map<string, Decision | null>(),
  };
  const projectVerdict = (name: string): Decision | null => {
    const snapshot = deps.registry.current();
    if (verdicts.snapshot !== snapshot) verdicts = { snapshot, of: new Map() };
    let verdict = verdicts.of.get(name);
    if (verdict === undefined) {
      verdict = registryVerdict({ name, version: null }, snapshot);
      if (verdicts.of.size >= 10_000) verdicts.of.clear();
      verdicts.of.set(name, verdict);
    }
    return verdict;
  };

  async function page(name: string): Promise<IndexPage> {
    const blocked = projectVerdict(name);
    if (blocked) return { status: "denied", denied: projectDenialOf(blocked) };
    const [upstream, vulnerabilities, license] = await Promise.all([
      deps.upstream.project(name),
      deps.vulnerabilities.query(name, null),
      deps.licenses.lookup(name, null),
    ]);
    if (upstream.status !== "ok") return upstream;
    const snapshot = deps.registry.current();
    const at = now();
    const hit = memo.get(upstream.page);
    if (
      hit && hit.snapshot === snapshot && hit.facts.vulnerabilities === vulnerabilities &&
      hit.facts.license === license && at.getTime() < hit.decided.until
    ) {
      return { status: "ok", decided: hit.decided };
    }
    const facts = { vulnerabilities, license };
    const decided = decidePage(name, upstream.page, snapshot, facts, at);
    memo.set(upstream.page, { snapshot, facts, decided });
    return { status: "ok", decided };
  }

  /** A refused file: audited (a `.metadata` file or a HEAD is not a download). */
  async function refuse(
    decision: Decision,
    filename: string,
    context: CallContext,
    audited: boolean,
  ): Promise<Download> {
    if (audited) {
      await deps.audit.insert({
        ...auditRowOf(decision, deps.registry.current(), context),
        reason: `index download of ${filename} refused: ${decision.reason}`,
      });
    }
    return { status: "denied", reason: decision.reason };
  }

  async function download(
    name: string,
    filename: string,
    context: CallContext,
    headOnly = false,
  ): Promise<Download> {
    const metadata = filename.endsWith(".metadata");
    const base = metadata ? filename.slice(0, -".metadata".length) : filename;
    const audited = !metadata && !headOnly;
    const answer = await page(name);
    if (answer.status === "not-found") {
      return { status: "not-found", detail: `no project ${name} upstream` };
    }
    if (answer.status === "unavailable") return answer;
    if (answer.status === "denied") {
      const decision = { ...answer.denied.decision, version: versionOfFile(name, base) };
      return refuse(decision, filename, context, audited);
    }
    const { decided } = answer;
    const version = decided.fileVersions.get(base);
    const file = answer.decided.page.files.find((f) => f.filename === base);
    if (version === undefined) {
      return { status: "not-found", detail: `${filename} is not a file of ${name}` };
    }
    const verdict = decided.versions.get(version)!;
    if (!verdict.allowed || !file) return refuse(verdict.decision, filename, context, audited);
    if (metadata && !file["core-metadata"] && !file["dist-info-metadata"]) {
      return { status: "not-found", detail: `upstream offers no metadata file for ${base}` };
    }
    if (headOnly) return { status: "ok", response: new Response(null, { status: 200 }) };
    let upstream: Response;
    try {
      upstream = await deps.upstream.file(metadata ? `${file.url}.metadata` : file.url);
    } catch (error) {
      return { status: "unavailable", detail: `upstream file: ${(error as Error).message}` };
    }
    if (!upstream.ok) {
      await upstream.body?.cancel();
      return { status: "unavailable", detail: `upstream file answered HTTP ${upstream.status}` };
    }
    if (!metadata) {
      await deps.audit.insert({
        ...auditRowOf(verdict.decision, deps.registry.current(), context),
        reason: `index download of ${filename}: ${verdict.decision.reason}`,
      });
    }
    const headers = new Headers({
      "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
    });
    const length = upstream.headers.get("content-length");
    if (length) headers.set("content-length", length);
    return { status: "ok", response: new Response(upstream.body, { status: 200, headers }) };
  }

  return { page, download };
}
