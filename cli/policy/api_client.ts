/**
 * HTTP client of the policyd API (SPEC §7, §11 "Client API layer").
 *
 * Transport failures become {@link ServerUnreachable}, or for evaluations
 * under fail-open a synthetic ALLOWED result with `transport_error: true`;
 * HTTP errors become {@link ServerError} carrying the problem+json detail.
 * Responses are validated at this edge against zod schemas: evaluations through
 * the validators generated from `evaluation_schema.ts` (`validate.ts`), so that
 * `check`, `hook` and `precommit` never load zod for a valid answer; the other
 * answers with zod, loaded by the methods that need it (docs/performance.md).
 *
 * @module
 */

import type { z } from "zod";
import { DEFAULT_CLIENT_TIMEOUT_MS, MAX_BATCH } from "../../src/api/evaluate_limits.ts";
import type { CallSource } from "../../src/api/headers.ts";
import { API_PATHS, apiPath } from "../../src/api/paths.ts";
import type { PackageRuleSchema } from "../../src/api/registry.ts";
import type { ResolvedConfig } from "./config.ts";
import type { BatchSchema, EvaluationSchema } from "./evaluation_schema.ts";
import { ClientError, ServerError, ServerUnreachable } from "./exit_codes.ts";
import { batch, evaluation } from "./generated/validators.js";
import type { GeneratedValidator } from "./generated/validators.js";
import { lazyImport } from "./lazy_import.ts";
import { cacheIsFresh, registryCachePath } from "./registry_cache_path.ts";
import { defaultTransport, fetchTransport } from "./transport.ts";
import type { HttpAnswer, Transport } from "./transport.ts";
import { validate } from "./validate.ts";

export { MAX_BATCH };
export type { CallSource };

/**
 * One evaluation; `transport_error` is set on fail-open synthetic results,
 * `offline_registry_version` on denials decided from the cached registry
 * while the server was unreachable (`offline_registry.ts`).
 */
export type EvaluationResult = z.infer<typeof EvaluationSchema> & {
  transport_error?: boolean;
  offline_registry_version?: string;
};

/** `offline_registry.ts`, loaded only to refresh the cached registry or to decide offline. */
function offlineRegistry() {
  return lazyImport<typeof import("./offline_registry.ts")>(
    new URL("./offline_registry.ts", import.meta.url),
  );
}

/** `evaluation_schema.ts`, which loads zod: imported only to word a rejected answer. */
function evaluationSchemas() {
  return lazyImport<typeof import("./evaluation_schema.ts")>(
    new URL("./evaluation_schema.ts", import.meta.url),
  );
}

/** The zod reading of an evaluation, loaded only when its generated validator rejects one. */
async function evaluationSchema(): Promise<typeof EvaluationSchema> {
  return (await evaluationSchemas()).EvaluationSchema;
}

/** The zod reading of a batch answer, loaded only when its generated validator rejects one. */
async function batchSchema(): Promise<typeof BatchSchema> {
  return (await evaluationSchemas()).BatchSchema;
}

/** The tolerant readings of the other contracts, built from their modules. */
function otherSchemas(
  { z }: typeof import("zod"),
  approvals: typeof import("../../src/api/approvals.ts"),
  reports: typeof import("../../src/api/reports.ts"),
  service: typeof import("../../src/api/service.ts"),
) {
  const { ApprovalListSchema, ApprovalReceiptSchema } = approvals;
  const { SecurityReportSchema } = reports;
  return {
    approval: ApprovalReceiptSchema.partial().required({ id: true, package: true })
      .extend({ status: z.string() }).loose(),
    pending: z.object({
      items: z.array(
        ApprovalListSchema.shape.items.element.partial().required({ package: true }).loose(),
      ),
    }),
    security: SecurityReportSchema.partial().required({ total_denials: true }).extend({
      top_packages: SecurityReportSchema.shape.top_packages.default([]),
    }).loose(),
    health: service.HealthSchema.partial().extend({ status: z.string() }).loose(),
    filedMessage: approvals.approvalFiledMessage,
    proposal: z.object({
      result: z.object({ backend: z.string(), status: z.string(), detail: z.string() }).loose(),
    }),
  };
}

type OtherSchemas = ReturnType<typeof otherSchemas>;
let loadedSchemas: Promise<OtherSchemas> | undefined;

/** Loads the contracts beyond the evaluation's once, on first use. */
function schemas(): Promise<OtherSchemas> {
  return loadedSchemas ??= Promise.all([
    lazyImport<typeof import("zod")>("zod"),
    lazyImport<typeof import("../../src/api/approvals.ts")>(
      new URL("../../src/api/approvals.ts", import.meta.url),
    ),
    lazyImport<typeof import("../../src/api/reports.ts")>(
      new URL("../../src/api/reports.ts", import.meta.url),
    ),
    lazyImport<typeof import("../../src/api/service.ts")>(
      new URL("../../src/api/service.ts", import.meta.url),
    ),
  ]).then(([zod, approvals, reports, service]) => otherSchemas(zod, approvals, reports, service));
}

/** A created approval request. */
export type ApprovalReceipt = z.infer<OtherSchemas["approval"]>;
/** What the server's proposer did with an operator's rule. */
export type ProposalOutcome = z.infer<OtherSchemas["proposal"]>["result"];
/** A rule as `policy approve` sends it (the server validates it). */
export type ProposedRuleInput = z.input<typeof PackageRuleSchema>;
/** Pending approval requests collapsed per package. */
export type PendingApprovals = z.infer<OtherSchemas["pending"]>;
/** The CVE-driven denial rollup. */
export type SecurityReport = z.infer<OtherSchemas["security"]>;
/** The server's health document. */
export type Health = z.infer<OtherSchemas["health"]>;

/** One package to evaluate in a batch. */
export interface PackageQuery {
  package: string;
  version?: string | null;
}

/** Everything the client needs; no process access of its own. */
export interface ApiClientOptions {
  serverUrl: string;
  project: string;
  failOpen: boolean;
  source: CallSource;
  agentModel?: string | null;
  agentVersion?: string | null;
  /** Bearer token sent in org mode. */
  token?: string | null;
  timeoutMs?: number;
  /** How requests are sent; default: over `fetch` (the next option, else the global one). */
  transport?: Transport;
  /** A `fetch` to send requests with (tests' fakes). */
  fetch?: typeof fetch;
  /**
   * The file keeping the last registry snapshot for offline decisions
   * (`offline_registry.ts`); none when null or absent.
   */
  registryCache?: string | null;
}

/** The policyd API as the client uses it. */
export class ApiClient {
  readonly #o: ApiClientOptions;
  readonly #send: Transport;

  /** Creates a client; nothing is contacted until a method is called. */
  constructor(options: ApiClientOptions) {
    this.#o = { ...options, serverUrl: options.serverUrl.replace(/\/+$/, "") };
    this.#send = options.transport ?? fetchTransport(options.fetch);
  }

  /** Base URL of the server. */
  get serverUrl(): string {
    return this.#o.serverUrl;
  }

  /** Whether evaluations fail open. */
  get failOpen(): boolean {
    return this.#o.failOpen;
  }

  /** `GET /evaluate` for one package (`name` or `name==1.2`). */
  async evaluate(pkg: string, version?: string | null): Promise<EvaluationResult> {
    const query: Record<string, string> = { package: pkg };
    if (version) query.version = version;
    const refreshed = this.#refreshRegistry();
    try {
      const body = await this.#call("GET", apiPath(API_PATHS.evaluate), { query });
      return await this.#valid(evaluation, body, "evaluation", evaluationSchema);
    } catch (error) {
      return (await this.#unreachable(error, [{ package: pkg, version }]))[0];
    } finally {
      await refreshed;
    }
  }

  /** `POST /evaluate/batch`, in chunks of {@link MAX_BATCH}; results in input order. */
  async evaluateBatch(packages: PackageQuery[]): Promise<EvaluationResult[]> {
    const results: EvaluationResult[] = [];
    const refreshed = this.#refreshRegistry();
    for (let i = 0; i < packages.length; i += MAX_BATCH) {
      const chunk = packages.slice(i, i + MAX_BATCH).map((p) =>
        p.version ? { package: p.package, version: p.version } : { package: p.package }
      );
      try {
        const body = await this.#call("POST", apiPath(API_PATHS.evaluateBatch), {
          json: { packages: chunk },
        });
        results.push(...(await this.#valid(batch, body, "batch answer", batchSchema)).results);
      } catch (error) {
        results.push(...await this.#unreachable(error, chunk));
      }
    }
    await refreshed;
    return results;
  }

  /**
   * Revalidates the cached registry snapshot when it is older than a few
   * minutes (`If-None-Match`; 304 only touches the file). Never fails: a
   * refresh that does not work keeps the old snapshot.
   */
  async #refreshRegistry(): Promise<void> {
    const path = this.#o.registryCache;
    if (!path) return;
    if (cacheIsFresh(path)) return;
    try {
      const offline = await offlineRegistry();
      const cached = offline.readCachedRegistry(path);
      const headers: Record<string, string> = this.#headers(false);
      if (cached?.etag) headers["if-none-match"] = cached.etag;
      const answer = await this.#send(new URL(this.#o.serverUrl + apiPath(API_PATHS.registry)), {
        method: "GET",
        headers,
        signal: AbortSignal.timeout(this.#o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS),
      });
      if (answer.status === 304 && cached) return offline.touchCachedRegistry(path);
      if (answer.status !== 200) return;
      const etag = Object.entries(answer.headers).find(([k]) => k.toLowerCase() === "etag")?.[1];
      const doc = offline.readRegistryDocument(
        JSON.parse(answer.text),
        etag ?? null,
        new Date().toISOString(),
      );
      if (doc) offline.writeCachedRegistry(path, doc);
    } catch {
      // unreachable, not JSON, a read-only cache directory: keep what there is
    }
  }

  /**
   * A transport failure: the cached registry decides what it alone decides
   * (denials, marked offline); the rest is allowed unchecked under fail-open,
   * else the failure stands, naming any offline denials.
   */
  async #unreachable(error: unknown, packages: PackageQuery[]): Promise<EvaluationResult[]> {
    if (!(error instanceof ServerUnreachable) || !this.#o.registryCache) {
      return this.#failOpen(error, packages);
    }
    const offline = await offlineRegistry();
    const cached = offline.readCachedRegistry(this.#o.registryCache);
    if (cached === null) return this.#failOpen(error, packages);
    const why = `the policy server at ${this.#o.serverUrl} is unreachable`;
    const decided = packages.map((p) => offline.offlineVerdict(cached, p, why));
    if (decided.every((d) => d !== null)) return decided as EvaluationResult[];
    if (!this.#o.failOpen) {
      const denied = decided.filter((d): d is EvaluationResult => d !== null);
      throw denied.length
        ? new ServerUnreachable(
          this.#o.serverUrl,
          `${error.detail}; decided offline from registry version ${cached.version}: ` +
            denied.map((d) => `${d.package} is DENIED (${d.denial_category})`).join(", "),
        )
        : error;
    }
    const unchecked = this.#failOpen(error, packages);
    return decided.map((d, i) => d ?? unchecked[i]);
  }

  /**
   * `POST /approval-requests` (202). The receipt's `message` is the server's
   * ("filed for review (id N); not approved yet"), or that sentence for a
   * server that sends none.
   */
  async requestApproval(
    request: { package: string; version?: string | null; rationale: string },
  ): Promise<ApprovalReceipt & { message: string }> {
    const json: Record<string, string> = { package: request.package, rationale: request.rationale };
    if (request.version) json.version = request.version;
    const body = await this.#call("POST", apiPath(API_PATHS.approvalRequests), { json });
    const loaded = await schemas();
    const receipt = loaded.approval.parse(body);
    return { ...receipt, message: receipt.message ?? loaded.filedMessage(receipt.id) };
  }

  /**
   * `POST /registry/proposals`: an operator approves (or otherwise rules on) a
   * package through the server's proposer. Operator-only in org mode.
   */
  async proposeRule(
    rule: ProposedRuleInput,
    rationale: string,
  ): Promise<ProposalOutcome> {
    const json = { rule, context: { source: "operator", rationale } };
    const body = await this.#call("POST", apiPath(API_PATHS.registryProposals), { json });
    return (await schemas()).proposal.parse(body).result;
  }

  /** `GET /approval-requests` with status PENDING_REVIEW; default project: the client's. */
  async pendingApprovals(project?: string): Promise<PendingApprovals> {
    const query = { project: project ?? this.#o.project, status: "PENDING_REVIEW" };
    const body = await this.#call("GET", apiPath(API_PATHS.approvalRequests), { query });
    return (await schemas()).pending.parse(body);
  }

  /** `GET /reports/security` for a project (default: the client's). */
  async securityReport(project?: string): Promise<SecurityReport> {
    const query = { project: project ?? this.#o.project };
    const body = await this.#call("GET", apiPath(API_PATHS.securityReport), { query });
    return (await schemas()).security.parse(body);
  }

  /** `GET /health`. */
  async health(): Promise<Health> {
    const body = await this.#call("GET", apiPath(API_PATHS.health), {});
    return (await schemas()).health.parse(body);
  }

  /** The headers every call carries (project, source, agent, bearer token in org mode). */
  headers(): Headers {
    return new Headers(this.#headers(false));
  }

  /** An answer as its zod schema reads it (see `validate.ts`); a bad one is a `server_error`. */
  async #valid<T>(
    fast: GeneratedValidator,
    body: unknown,
    what: string,
    loadSchema: () => Promise<z.ZodType<T>>,
  ): Promise<T> {
    const result = await validate(fast, body, loadSchema);
    if (result.ok) return result.value;
    const key = result.key ? `key "${result.key}": ` : "";
    throw new ClientError(
      "server_error",
      `policyd server at ${this.#o.serverUrl} sent an invalid ${what}: ${key}${result.message}`,
    );
  }

  #failOpen(error: unknown, packages: PackageQuery[]): EvaluationResult[] {
    if (!(error instanceof ServerUnreachable) || !this.#o.failOpen) throw error;
    return packages.map((p) => ({
      package: p.package,
      version: p.version ?? null,
      verdict: "ALLOWED" as const,
      reason: `not evaluated: ${error.message} (fail_open)`,
      denial_category: null,
      registry_status: null,
      replacement: null,
      license: null,
      cves: [],
      max_cvss: null,
      transport_error: true,
    }));
  }

  /** Plain headers: a `Headers` would load Deno's fetch stack (`transport.ts`). */
  #headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: "application/json" };
    if (json) h["content-type"] = "application/json";
    h["x-policy-project"] = this.#o.project;
    h["x-policy-source"] = this.#o.source;
    if (this.#o.agentModel) h["x-policy-agent-model"] = this.#o.agentModel;
    if (this.#o.agentVersion) h["x-policy-agent-version"] = this.#o.agentVersion;
    if (this.#o.token) h.authorization = `Bearer ${this.#o.token}`;
    return h;
  }

  async #call(
    method: string,
    path: string,
    init: { query?: Record<string, string>; json?: unknown },
  ): Promise<unknown> {
    const url = new URL(this.#o.serverUrl + path);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
    let response: HttpAnswer;
    try {
      response = await this.#send(url, {
        method,
        headers: this.#headers(init.json !== undefined),
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal: AbortSignal.timeout(this.#o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS),
      });
    } catch (error) {
      const name = (error as Error)?.name;
      const detail = name === "TimeoutError"
        ? `no answer within ${(this.#o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS) / 1000} s`
        : transportDetail(error);
      throw new ServerUnreachable(this.#o.serverUrl, detail);
    }
    const text = response.text;
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (response.status < 200 || response.status > 299) {
      throw new ServerError(response.status, problemDetail(body, text, response));
    }
    if (body === null) throw new ServerError(response.status, "response is not JSON");
    return body;
  }
}

function transportDetail(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const text = String((cause as Error)?.message ?? (error as Error)?.message ?? error);
  // "error sending request for url (…): client error (Connect): tcp connect error: Connection refused (os error 111)"
  const last = text.split(": ").filter((part) => !part.startsWith("error sending request")).pop();
  return (last ?? text).split("\n")[0];
}

/** `: path: message; …` of a problem's `errors` (422), empty without them. */
function fieldErrors(errors: unknown): string {
  if (!Array.isArray(errors) || errors.length === 0) return "";
  const shown = errors.slice(0, 3).map((e) =>
    `${String((e as { path?: unknown })?.path ?? "")}: ${
      String((e as { message?: unknown })?.message ?? "")
    }`
  );
  return `: ${shown.join("; ")}`.split("\n")[0];
}

function problemDetail(body: unknown, text: string, response: HttpAnswer): string {
  if (body && typeof body === "object") {
    const p = body as Record<string, unknown>;
    for (const key of ["detail", "title"]) {
      if (typeof p[key] === "string" && p[key]) {
        return (p[key] as string).split("\n")[0] + fieldErrors(p.errors);
      }
    }
  }
  return text.trim().split("\n")[0].slice(0, 200) || response.statusText || "error";
}

/** Per-invocation inputs beside the config: source, agent, environment. */
export interface ClientContext {
  source: CallSource;
  agentModel?: string | null;
  agentVersion?: string | null;
  env: (name: string) => string | undefined;
  fetch?: typeof fetch;
}

/**
 * Builds a client from resolved config. Agent identity: flag, else
 * `POLICY_AGENT_MODEL` / `POLICY_AGENT_VERSION`. Org mode needs the bearer
 * token in the variable named by `api_key_env_var`; a missing one is a
 * `config` error.
 */
export function clientFromConfig(config: ResolvedConfig, ctx: ClientContext): ApiClient {
  let token: string | null = null;
  if (config.mode === "org") {
    token = ctx.env(config.api_key_env_var) ?? null;
    if (!token) {
      throw new ClientError(
        "config",
        `org mode needs an API key in the environment variable ${config.api_key_env_var} (api_key_env_var), which is not set`,
      );
    }
  }
  return new ApiClient({
    serverUrl: config.server_url,
    project: config.project,
    failOpen: config.fail_open,
    source: ctx.source,
    agentModel: ctx.agentModel || ctx.env("POLICY_AGENT_MODEL") || null,
    agentVersion: ctx.agentVersion || ctx.env("POLICY_AGENT_VERSION") || null,
    token,
    timeoutMs: config.timeout_seconds * 1000,
    transport: ctx.fetch ? fetchTransport(ctx.fetch) : defaultTransport(ctx.env),
    registryCache: registryCachePath(config.server_url, ctx.env),
  });
}
