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
import { MAX_BATCH } from "../../src/api/evaluate_limits.ts";
import type { CallSource } from "../../src/api/headers.ts";
import { API_PATHS, apiPath } from "../../src/api/paths.ts";
import type { ResolvedConfig } from "./config.ts";
import { type ApiClientOptions, callApi, type PackageQuery, requestHeaders } from "./api_call.ts";
import { refreshRegistryCache, unreachableResults } from "./offline_fallback.ts";
import {
  type ApprovalReceipt,
  batchSchema,
  type EvaluationResult,
  evaluationSchema,
  type Health,
  type PendingApprovals,
  type ProposalOutcome,
  type ProposedRuleInput,
  schemas,
  type SecurityReport,
} from "./api_schemas.ts";
import { ClientError } from "./exit_codes.ts";
import type { GeneratedValidator } from "./generated/validators.js";
import { lazyImport } from "./lazy_import.ts";
import { registryCachePath } from "./registry_cache_path.ts";
import { defaultTransport, fetchTransport } from "./transport.ts";
import type { Transport } from "./transport.ts";
import { validate } from "./validate.ts";

export { MAX_BATCH };
export type { CallSource };
export type { ApiClientOptions, PackageQuery } from "./api_call.ts";
export type {
  ApprovalReceipt,
  EvaluationResult,
  Health,
  PendingApprovals,
  ProposalOutcome,
  ProposedRuleInput,
  SecurityReport,
} from "./api_schemas.ts";

/**
 * The generated validator of one evaluation, loaded while the request is under
 * way: the client waits for the server then, and `policy precommit` never
 * loads it (docs/performance.md, "Pre-commit, fourth pass").
 */
async function evaluationValidator(): Promise<GeneratedValidator> {
  return (await lazyImport<typeof import("./generated/evaluation.js")>(
    new URL("./generated/evaluation.js", import.meta.url),
  )).evaluation;
}

/** The generated validator of a batch answer, loaded as {@link evaluationValidator}. */
async function batchValidator(): Promise<GeneratedValidator> {
  return (await lazyImport<typeof import("./generated/batch.js")>(
    new URL("./generated/batch.js", import.meta.url),
  )).batch;
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
    const waiting = this.#meanwhile(evaluationValidator);
    try {
      const body = await this.#call("GET", apiPath(API_PATHS.evaluate), {
        query,
        sent: waiting.start,
      });
      return await this.#valid(await waiting.validator(), body, "evaluation", evaluationSchema);
    } catch (error) {
      return (await unreachableResults(this.#o, error, [{ package: pkg, version }]))[0];
    } finally {
      await waiting.refreshed();
    }
  }

  /** `POST /evaluate/batch`, in chunks of {@link MAX_BATCH}; results in input order. */
  async evaluateBatch(packages: PackageQuery[]): Promise<EvaluationResult[]> {
    const results: EvaluationResult[] = [];
    const waiting = this.#meanwhile(batchValidator);
    for (let i = 0; i < packages.length; i += MAX_BATCH) {
      const chunk = packages.slice(i, i + MAX_BATCH).map((p) =>
        p.version ? { package: p.package, version: p.version } : { package: p.package }
      );
      try {
        const body = await this.#call("POST", apiPath(API_PATHS.evaluateBatch), {
          json: { packages: chunk },
          sent: waiting.start,
        });
        const valid = await this.#valid(
          await waiting.validator(),
          body,
          "batch answer",
          batchSchema,
        );
        results.push(...valid.results);
      } catch (error) {
        results.push(...await unreachableResults(this.#o, error, chunk));
      }
    }
    await waiting.refreshed();
    return results;
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
    return new Headers(requestHeaders(this.#o, false));
  }

  #call(
    method: string,
    path: string,
    init: { query?: Record<string, string>; json?: unknown; sent?: () => void },
  ): Promise<unknown> {
    return callApi(this.#send, this.#o, method, path, init);
  }

  /**
   * What an evaluation does while its request is under way (`start`, called
   * once the request is written): the registry cache's age is looked at (and
   * a refresh sent when it is old) and the answer's validator is loaded, so
   * neither delays the request. Each runs at most once, and on demand when
   * the transport never called `start`.
   */
  #meanwhile(load: () => Promise<GeneratedValidator>) {
    let refreshed: Promise<void> | undefined;
    let validator: Promise<GeneratedValidator> | undefined;
    const start = () => {
      refreshed ??= refreshRegistryCache(this.#send, this.#o);
      validator ??= load();
    };
    return {
      start,
      validator: () => validator ??= load(),
      refreshed: () => refreshed ??= refreshRegistryCache(this.#send, this.#o),
    };
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
