/**
 * The MCP surface of policyd: the route contract of `POST /mcp` and the
 * contract of each tool (name, the description an agent reads to decide
 * when to call it, input and output schemas). The server (`src/mcp/`) and
 * the stdio client (`policy mcp`) both register the tools from here, so the
 * two transports can never drift apart.
 *
 * @module
 */
import { z } from "zod";
import { defineRoute } from "./contract.ts";
import { MAX_BATCH, ReportedCveSchema, ThreatSchema } from "./evaluate.ts";
import { DENIAL_CATEGORIES, REGISTRY_STATUSES, VERDICTS } from "../core/types.ts";
import { MAX_PACKAGE_SPEC_LENGTH, SPEC_TOO_LONG_MESSAGE } from "../core/names.ts";
import { APPROVAL_STATUSES } from "./enums.ts";
import { CompiledRegistrySchema, PackageRuleSchema } from "./registry.ts";

const PackageArgument = z
  .string()
  .trim()
  .min(1, { message: "a package name is required" })
  .max(MAX_PACKAGE_SPEC_LENGTH, { message: SPEC_TOO_LONG_MESSAGE })
  .describe("PyPI package name (PEP 508 name, may be pinned: `requests==2.32.3`)");
const VersionArgument = z.string().trim().min(1).max(100).optional().describe(
  "the exact version you intend to install (PEP 440); omit when unknown",
);

/** Input of `check_package`. */
export const CheckPackageInputSchema = z.object({
  package: PackageArgument,
  version: VersionArgument,
});

/** One vulnerability as a tool reports it: an evaluation's, without the aliases. */
export const ToolCveSchema = ReportedCveSchema.omit({ aliases: true });

/** Output of `check_package` (one verdict). */
export const CheckPackageOutputSchema = z.object({
  package: z.string(),
  version: z.string().nullable(),
  verdict: z.enum(VERDICTS),
  reason: z.string(),
  category: z.enum(DENIAL_CATEGORIES).nullable().describe("why it was denied; null otherwise"),
  replacement: z.string().nullable().describe(
    "the package to use instead, when the registry names one",
  ),
  registry_status: z.enum(REGISTRY_STATUSES).nullable(),
  license: z.string().nullable(),
  cves: z.array(ToolCveSchema),
  threats: z.array(ThreatSchema).describe(
    "malicious advisories, missing names (with suggestions), look-alikes, new projects, yanks",
  ),
  audit_id: z.number().int(),
});

/** Input of `check_packages`. */
export const CheckPackagesInputSchema = z.object({
  packages: z.array(CheckPackageInputSchema).min(1).max(MAX_BATCH).describe(
    `up to ${MAX_BATCH} packages, evaluated together`,
  ),
});

/** Output of `check_packages`: results in request order. */
export const CheckPackagesOutputSchema = z.object({
  results: z.array(CheckPackageOutputSchema),
  denied: z.number().int().describe("how many results are DENIED"),
});

/** Input of `request_approval`. */
export const RequestApprovalInputSchema = z.object({
  package: PackageArgument,
  version: VersionArgument,
  rationale: z.string().trim().min(1, { message: "a rationale is required" }).max(4000)
    .describe("why this package is needed and why the allowed alternatives do not fit"),
});

/** Output of `request_approval`. */
export const RequestApprovalOutputSchema = z.object({
  id: z.number().int(),
  package: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  project: z.string(),
  message: z.string().describe("what happened: filed for review, not approved yet"),
});

/** Input of `explain_policy`. */
export const ExplainPolicyInputSchema = z.object({ package: PackageArgument });

/** Output of `explain_policy`: the registry rule of the package and the global policies. */
export const ExplainPolicyOutputSchema = z.object({
  package: z.string().describe("the PEP 503-normalised name"),
  registry_version: z.string(),
  rule: PackageRuleSchema.nullable().describe(
    "the registry rule; null when the registry does not list the package",
  ),
  policies: CompiledRegistrySchema.shape.policies,
  summary: z.string().describe("the rules above in one paragraph"),
});

/** One tool of the MCP server. */
export interface McpToolContract {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  /** True when the tool only reads (it may still write an audit row). */
  readOnly: boolean;
}

/** Every tool of the policyd MCP server, in the order `tools/list` gives them. */
export const MCP_TOOLS = [
  {
    name: "check_package",
    title: "Check a Python package against the dependency policy",
    description:
      "Call this BEFORE adding, installing or upgrading a Python dependency (pip install, uv add, " +
      "poetry add, or an edit of pyproject.toml / requirements*.txt). Returns the verdict " +
      "(ALLOWED, PROVISIONALLY_ALLOWED, DENIED), the reason, the denial category, the replacement " +
      "to use instead and the known CVEs. Do not add a DENIED package: use the replacement, or " +
      "call request_approval if nothing else fits. The check is recorded in the audit log.",
    input: CheckPackageInputSchema,
    output: CheckPackageOutputSchema,
    readOnly: true,
  },
  {
    name: "check_packages",
    title: "Check several Python packages at once",
    description:
      "Call this instead of check_package when you are about to add several dependencies or want to " +
      "vet a whole requirements list or lock file: one call, one verdict per package in request " +
      `order (at most ${MAX_BATCH}). Same fields as check_package, plus the number denied.`,
    input: CheckPackagesInputSchema,
    output: CheckPackagesOutputSchema,
    readOnly: true,
  },
  {
    name: "request_approval",
    title: "Ask the operators to approve a package",
    description:
      "Call this when check_package answered DENIED or PROVISIONALLY_ALLOWED and the package is " +
      "genuinely needed (no replacement fits). Give a concrete rationale: what it is for and why the " +
      "allowed alternatives do not work. The request is queued for human review; the package stays " +
      "denied until an operator approves it, so tell the user it is pending.",
    input: RequestApprovalInputSchema,
    output: RequestApprovalOutputSchema,
    readOnly: false,
  },
  {
    name: "explain_policy",
    title: "Explain which rules apply to a package",
    description:
      "Call this to understand WHY a package gets its verdict, or before choosing between " +
      "candidates: returns the package's registry rule (status, reason, replacement, allowed " +
      "version range) and the global policies (CVE threshold, allowed and denied licenses, what " +
      "happens with an unknown license). Writes no audit row.",
    input: ExplainPolicyInputSchema,
    output: ExplainPolicyOutputSchema,
    readOnly: true,
  },
] as const satisfies readonly McpToolContract[];

/** Instructions an MCP server of policyd gives the agent at initialisation. */
export const MCP_INSTRUCTIONS =
  "policyd decides which Python packages this project may depend on. Before adding, installing " +
  "or upgrading a Python dependency, call check_package (or check_packages for several). Never " +
  "add a DENIED package: use the replacement it names, or call request_approval with a rationale.";

/** The registration config of a tool (the SDK's `registerTool` second argument). */
export function mcpToolConfig<T extends McpToolContract>(tool: T) {
  return {
    title: tool.title,
    description: tool.description,
    inputSchema: tool.input as T["input"],
    outputSchema: tool.output as T["output"],
    annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
  };
}

/** Name of one policyd MCP tool. */
export type McpToolName = typeof MCP_TOOLS[number]["name"];

/** `POST /mcp`. */
export const mcpRoute = defineRoute("post", "/mcp", {
  base: "",
  summary: "Model Context Protocol endpoint (Streamable HTTP, stateless).",
  description: "JSON-RPC messages of the Model Context Protocol. Tools: " +
    MCP_TOOLS.map((tool) => `\`${tool.name}\``).join(", ") +
    ". Evaluations are audited with source `mcp`. Same authentication as the API.",
  body: { contentType: "application/json", schema: z.looseObject({ jsonrpc: z.literal("2.0") }) },
  responses: {
    200: {
      description: "the JSON-RPC answer (JSON, or an SSE stream when the client accepts one)",
      schema: z.looseObject({}),
    },
    202: { description: "a notification or response was accepted" },
  },
  errors: { 400: "not a JSON-RPC message" },
});
