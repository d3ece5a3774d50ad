/**
 * Contracts of the registry routes: the live registry, YAML validation,
 * reload, the review queue, operator proposals and the merge webhook.
 *
 * @module
 */
import { z } from "zod";
import { REGISTRY_STATUSES } from "../core/types.ts";
import { PENDING_REASONS, PROPOSAL_STATUSES } from "./enums.ts";
import { defineRoute } from "./contract.ts";
import { PACKAGE_TALLY_FIELDS, RULE_OPTIONAL_FIELDS } from "./fragments.ts";
import { FieldErrorSchema } from "./problem.ts";
import { ProjectNameSchema } from "./headers.ts";
import { API_PATHS } from "./paths.ts";

/** One compiled package rule. */
export const PackageRuleSchema = z.object({
  name: z.string().describe("PEP 503-normalised"),
  status: z.enum(REGISTRY_STATUSES),
  ...RULE_OPTIONAL_FIELDS,
});

/** The compiled registry (policies and rules; later capabilities add members). */
export const CompiledRegistrySchema = z.looseObject({
  version: z.string(),
  compiled_at: z.string(),
  policies: z.looseObject({
    cve_threshold: z.number(),
    block_on_cve: z.boolean(),
    unversioned_cve_scope: z.enum(["latest", "any"]),
    licenses: z.object({ allowed: z.array(z.string()), denied: z.array(z.string()) }),
    unknown_license_policy: z.enum(["allow", "provisional", "deny"]),
  }),
  packages: z.array(PackageRuleSchema),
});

/** Body of `POST /registry/parse-yaml` as JSON (a `text/yaml` body is the document itself). */
export const ParseYamlJsonSchema = z.object({ yaml: z.string() });

/** Answer of a reload. */
export const ReloadResultSchema = z.object({
  ok: z.boolean(),
  previous_version: z.string().optional(),
  new_version: z.string().optional(),
  package_count: z.number().int(),
  added_packages: z.number().int(),
  approved_requests: z.number().int(),
  detail: z.string(),
  errors: z.array(FieldErrorSchema).optional(),
});

/** Query of `GET /registry/pending`. */
export const PendingQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(3650).default(30).describe("window in days"),
});

/** The review queue. */
export const PendingListSchema = z.object({
  items: z.array(z.object({
    package: z.string(),
    reason: z.enum(PENDING_REASONS),
    ...PACKAGE_TALLY_FIELDS,
    last_seen: z.string(),
    rationale: z.string().optional(),
  })),
});

const text = (max: number) => z.string().max(max);

/** Body of `POST /registry/proposals`; the rule itself is checked by the registry validator (422). */
export const ProposalBodySchema = z.object({
  rule: z.unknown().refine((v) => v !== undefined && v !== null, { message: "required" })
    .describe("{name, status, reason?, replacement?, min_version?, max_version?}"),
  context: z
    .object({
      source: z.enum(["agent", "operator"]),
      project: ProjectNameSchema,
      rationale: text(4000),
      agent_model: text(200),
      agent_version: text(200),
      extra: z.record(z.string(), z.unknown()),
    })
    .partial()
    .optional(),
});

/** What a proposer did. */
export const ProposalResultSchema = z.object({
  backend: z.string().describe("log_only, local_file, local_git, github or a module's name"),
  status: z.enum(PROPOSAL_STATUSES),
  url: z.string().optional(),
  branch: z.string().optional(),
  commit_sha: z.string().optional(),
  detail: z.string(),
});

/** Answers of the merge webhook. */
export const WebhookResponseSchema = z.union([
  z.object({ ok: z.literal(true), event: z.literal("ping") }),
  z.object({ reload: ReloadResultSchema, sync: z.string() }),
  z.object({
    duplicate: z.literal(true).describe("an X-GitHub-Delivery already handled within a day"),
    delivery: z.string(),
  }),
]);

/** `GET /registry`. */
export const registryGetRoute = defineRoute("get", API_PATHS.registry, {
  summary:
    "The live compiled registry (ETag and 304 supported; clients keep it for offline rules).",
  responses: {
    200: { description: "the compiled registry", schema: CompiledRegistrySchema },
    304: { description: "not modified (If-None-Match)" },
  },
});

/** `POST /registry/parse-yaml`. */
export const registryParseRoute = defineRoute("post", "/registry/parse-yaml", {
  summary: "Validate a registry YAML document (text/yaml body or {yaml}).",
  body: {
    contentType: "text/yaml",
    schema: z.string(),
    alternatives: { "application/json": ParseYamlJsonSchema },
  },
  responses: {
    200: {
      description: "valid",
      schema: z.object({ ok: z.literal(true), registry: CompiledRegistrySchema }),
    },
  },
  errors: {
    400: "a JSON body without `yaml`",
    422: "invalid registry: `ok: false` and `errors: [{path, message}]`",
  },
});

/** `POST /registry/reload`. */
export const registryReloadRoute = defineRoute("post", "/registry/reload", {
  summary: "Re-read the registry file and swap it in atomically.",
  operator: true,
  responses: { 200: { description: "the reload result", schema: ReloadResultSchema } },
  errors: { 403: "not an operator" },
});

/** `GET /registry/pending`. */
export const registryPendingRoute = defineRoute("get", "/registry/pending", {
  summary:
    "The review queue: requested, provisional-no-rationale, repeatedly-denied, pre-screened.",
  query: PendingQuerySchema,
  responses: {
    200: { description: "one row per package, highest-signal reason", schema: PendingListSchema },
  },
  errors: { 400: "invalid days" },
});

/** `POST /registry/proposals`. */
export const registryProposalRoute = defineRoute("post", API_PATHS.registryProposals, {
  summary: "Propose a rule through the configured proposer.",
  operator: true,
  body: { contentType: "application/json", schema: ProposalBodySchema },
  responses: {
    200: {
      description: "the proposer's result",
      schema: z.object({ result: ProposalResultSchema }),
    },
  },
  errors: { 400: "no rule", 403: "not an operator", 422: "invalid rule" },
});

/** `POST /registry/webhook`. */
export const registryWebhookRoute = defineRoute("post", "/registry/webhook", {
  summary:
    "Git host webhook (HMAC-SHA256 in X-Hub-Signature-256); a merged pull request pulls and reloads.",
  description:
    "Needs REGISTRY_WEBHOOK_SECRET on the server and a git-backed registry (local_git or github proposer, or a git work tree at REGISTRY_PATH).",
  public: true,
  body: { contentType: "application/json", schema: z.looseObject({}) },
  responses: {
    200: {
      description:
        "ping, {reload, sync} after a merged pull request, or {duplicate} for a replayed delivery",
      schema: WebhookResponseSchema,
    },
    202: {
      description: "event ignored",
      schema: z.object({
        ignored: z.literal(true),
        event: z.string(),
        action: z.string().nullable().optional(),
      }),
    },
  },
  errors: {
    400: "malformed delivery",
    401: "bad or missing signature",
    403: "no REGISTRY_WEBHOOK_SECRET configured",
    502: "pulling the merged registry failed; registry unchanged",
  },
});
