/**
 * HTTP client of the policyd API (SPEC §7, §11 "Client API layer").
 *
 * Transport failures become {@link ServerUnreachable}, or for evaluations
 * under fail-open a synthetic ALLOWED result with `transport_error: true`;
 * HTTP errors become {@link ServerError} carrying the problem+json detail.
 * Responses are validated with zod at this edge.
 *
 * @module
 */

import { z } from "zod";
// Only the evaluation contract is loaded up front: `check`, `hook` and
// `precommit` need nothing else, and every contract module costs start-up time
// (docs/performance.md). The others are imported by the methods that use them.
import {
  DEFAULT_CLIENT_TIMEOUT_MS,
  EvaluationSchema as ContractEvaluation,
  MAX_BATCH,
  ReportedCveSchema,
} from "../../src/api/evaluate.ts";
import type { CallSource } from "../../src/api/headers.ts";
import type { ResolvedConfig } from "./config.ts";
import { ClientError, ServerError, ServerUnreachable } from "./exit_codes.ts";

export { MAX_BATCH };
export type { CallSource };

/**
 * The server's evaluation contract, read tolerantly: members added by a newer
 * server are kept, members an older server lacks are optional.
 */
export const EvaluationSchema = ContractEvaluation.partial().required({
  package: true,
  verdict: true,
}).extend({
  reason: z.string().default(""),
  cves: z.array(ReportedCveSchema.partial().required({ id: true }).loose()).default([]),
}).loose();

/** One evaluation; `transport_error` is set on fail-open synthetic results. */
export type EvaluationResult = z.infer<typeof EvaluationSchema> & { transport_error?: boolean };

const BatchSchema = z.object({ results: z.array(EvaluationSchema) });
/** The tolerant readings of the other contracts, built from their modules. */
function otherSchemas(
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
  };
}

type OtherSchemas = ReturnType<typeof otherSchemas>;
let loadedSchemas: Promise<OtherSchemas> | undefined;

/** Loads the contracts beyond the evaluation's once, on first use. */
function schemas(): Promise<OtherSchemas> {
  return loadedSchemas ??= Promise.all([
    import("../../src/api/approvals.ts"),
    import("../../src/api/reports.ts"),
    import("../../src/api/service.ts"),
  ]).then(([approvals, reports, service]) => otherSchemas(approvals, reports, service));
}

/** A created approval request. */
export type ApprovalReceipt = z.infer<OtherSchemas["approval"]>;
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
  fetch?: typeof fetch;
}

/** The policyd API as the client uses it. */
export class ApiClient {
  readonly #o: ApiClientOptions;
  readonly #fetch: typeof fetch;

  /** Creates a client; nothing is contacted until a method is called. */
  constructor(options: ApiClientOptions) {
    this.#o = { ...options, serverUrl: options.serverUrl.replace(/\/+$/, "") };
    this.#fetch = options.fetch ?? fetch;
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
    try {
      return EvaluationSchema.parse(await this.#call("GET", "/api/v1/evaluate", { query }));
    } catch (error) {
      return this.#failOpen(error, [{ package: pkg, version }])[0];
    }
  }

  /** `POST /evaluate/batch`, in chunks of {@link MAX_BATCH}; results in input order. */
  async evaluateBatch(packages: PackageQuery[]): Promise<EvaluationResult[]> {
    const results: EvaluationResult[] = [];
    for (let i = 0; i < packages.length; i += MAX_BATCH) {
      const chunk = packages.slice(i, i + MAX_BATCH).map((p) =>
        p.version ? { package: p.package, version: p.version } : { package: p.package }
      );
      try {
        const body = await this.#call("POST", "/api/v1/evaluate/batch", {
          json: { packages: chunk },
        });
        results.push(...BatchSchema.parse(body).results);
      } catch (error) {
        results.push(...this.#failOpen(error, chunk));
      }
    }
    return results;
  }

  /** `POST /approval-requests` (202). */
  async requestApproval(
    request: { package: string; version?: string | null; rationale: string },
  ): Promise<ApprovalReceipt> {
    const json: Record<string, string> = { package: request.package, rationale: request.rationale };
    if (request.version) json.version = request.version;
    const body = await this.#call("POST", "/api/v1/approval-requests", { json });
    return (await schemas()).approval.parse(body);
  }

  /** `GET /approval-requests` with status PENDING_REVIEW; default project: the client's. */
  async pendingApprovals(project?: string): Promise<PendingApprovals> {
    const query = { project: project ?? this.#o.project, status: "PENDING_REVIEW" };
    const body = await this.#call("GET", "/api/v1/approval-requests", { query });
    return (await schemas()).pending.parse(body);
  }

  /** `GET /reports/security` for a project (default: the client's). */
  async securityReport(project?: string): Promise<SecurityReport> {
    const query = { project: project ?? this.#o.project };
    const body = await this.#call("GET", "/api/v1/reports/security", { query });
    return (await schemas()).security.parse(body);
  }

  /** `GET /health`. */
  async health(): Promise<Health> {
    const body = await this.#call("GET", "/api/v1/health", {});
    return (await schemas()).health.parse(body);
  }

  /** The headers every call carries (project, source, agent, bearer token in org mode). */
  headers(): Headers {
    return this.#headers(false);
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

  #headers(json: boolean): Headers {
    const h = new Headers({ accept: "application/json" });
    if (json) h.set("content-type", "application/json");
    h.set("x-policy-project", this.#o.project);
    h.set("x-policy-source", this.#o.source);
    if (this.#o.agentModel) h.set("x-policy-agent-model", this.#o.agentModel);
    if (this.#o.agentVersion) h.set("x-policy-agent-version", this.#o.agentVersion);
    if (this.#o.token) h.set("authorization", `Bearer ${this.#o.token}`);
    return h;
  }

  async #call(
    method: string,
    path: string,
    init: { query?: Record<string, string>; json?: unknown },
  ): Promise<unknown> {
    const url = new URL(this.#o.serverUrl + path);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
    let response: Response;
    try {
      response = await this.#fetch(url, {
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
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!response.ok) throw new ServerError(response.status, problemDetail(body, text, response));
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

function problemDetail(body: unknown, text: string, response: Response): string {
  if (body && typeof body === "object") {
    const p = body as Record<string, unknown>;
    for (const key of ["detail", "title"]) {
      if (typeof p[key] === "string" && p[key]) return (p[key] as string).split("\n")[0];
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
    fetch: ctx.fetch,
  });
}
