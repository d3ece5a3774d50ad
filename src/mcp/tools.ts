/**
 * What each policyd MCP tool does, on the server: the evaluation service,
 * the approval service and the live registry, called in-process. Input
 * arrives already validated against the tool's contract (`src/api/mcp.ts`);
 * a package spec the evaluation rejects becomes a {@link ToolInputError}.
 *
 * @module
 */
import { DEFAULT_MIN_PROJECT_AGE_DAYS } from "../core/threat_rules.ts";
import type { z } from "zod";
import type {
  CheckPackageOutputSchema,
  CheckPackagesInputSchema,
  CheckPackagesOutputSchema,
  ExplainPolicyOutputSchema,
  McpToolName,
  RequestApprovalInputSchema,
  RequestApprovalOutputSchema,
} from "../api/mcp.ts";
import type { ApprovalService } from "../approvals/service.ts";
import { normalizeName } from "../core/names.ts";
import type { Evaluation, EvaluationRequest, RegistrySnapshot } from "../core/types.ts";
import { parsePackageSpec } from "../evaluation/package_spec.ts";
import { approvalFiledMessage } from "../api/approval_message.ts";
import type { CallContext, EvaluationService } from "../evaluation/service.ts";

/** A tool argument the service cannot use (bad name or version); reported to the agent. */
export class ToolInputError extends Error {}

/** The call context of a tool call (an MCP request approves nothing, SPEC §17.1). */
export type ToolCallContext = CallContext;

/** What the tools need from the server. */
export interface PolicyToolDeps {
  evaluations: EvaluationService;
  approvals: Pick<ApprovalService, "request">;
  registry: { current(): RegistrySnapshot };
}

type CheckOutput = z.infer<typeof CheckPackageOutputSchema>;

function toRequest(pkg: string, version: string | undefined, path = ""): EvaluationRequest {
  const parsed = parsePackageSpec(pkg, version);
  if (!parsed.ok) throw new ToolInputError(`${path}${parsed.path}: ${parsed.message}`);
  return parsed.request;
}

/** The tool view of an evaluation. */
export function toCheckOutput(evaluation: Evaluation): CheckOutput {
  return {
    package: evaluation.package,
    version: evaluation.version,
    verdict: evaluation.verdict,
    reason: evaluation.reason,
    category: evaluation.denial_category,
    replacement: evaluation.replacement,
    registry_status: evaluation.registry_status,
    license: evaluation.license,
    cves: evaluation.cves.map((cve) => ({
      id: cve.id,
      score: cve.score,
      ...(cve.summary ? { summary: cve.summary } : {}),
    })),
    threats: evaluation.threats,
    audit_id: evaluation.audit_id,
  };
}

/** What the supply-chain rules of SPEC §17.2 deny under these policies. */
function threatSentence(policies: RegistrySnapshot["registry"]["policies"]): string {
  const minAge = policies.min_project_age_days ?? DEFAULT_MIN_PROJECT_AGE_DAYS;
  const unlisted = [
    "a name or release PyPI does not know",
    (policies.typosquat ?? "deny") === "deny" ? "a look-alike of a popular project" : "",
    minAge > 0 ? `a project first released fewer than ${minAge} days ago` : "",
  ].filter(Boolean);
  return `Known malware and yanked releases are always denied; for a package the registry does ` +
    `not allow, so is ${unlisted.join(", ")}.`;
}

function describeRule(snapshot: RegistrySnapshot, name: string): string {
  const { policies } = snapshot.registry;
  const rule = snapshot.byName.get(name);
  const parts: string[] = [];
  if (!rule) {
    parts.push(
      `${name} is not in the registry, so at best it is PROVISIONALLY_ALLOWED (only the registry ` +
        `makes a package ALLOWED); request_approval asks the operators to list it.`,
    );
  } else {
    const range = [
      rule.min_version ? `>= ${rule.min_version}` : "",
      rule.max_version ? `<= ${rule.max_version}` : "",
    ].filter(Boolean).join(", ");
    const verdict = rule.status === "banned" || rule.status === "deprecated"
      ? "DENIED"
      : rule.status === "version-constrained"
      ? `ALLOWED only within ${range || "the allowed range"}`
      : "ALLOWED unless a vulnerability or license rule below denies it";
    parts.push(`${name} is ${rule.status} in the registry: ${verdict}.`);
    if (rule.reason) parts.push(`Reason: ${rule.reason}.`.replace(/\.\.$/, "."));
    if (rule.replacement) parts.push(`Use ${rule.replacement} instead.`);
  }
  parts.push(
    policies.block_on_cve
      ? `Versions with a known vulnerability scored ${policies.cve_threshold} or more are denied.`
      : `Vulnerabilities are reported but do not deny (block_on_cve is off).`,
  );
  if (policies.licenses.denied.length) {
    parts.push(`Denied licenses: ${policies.licenses.denied.join(", ")}.`);
  }
  if (policies.licenses.allowed.length) {
    parts.push(`Allowed licenses: ${policies.licenses.allowed.join(", ")}.`);
  }
  parts.push(
    `A license that cannot be determined is handled as "${policies.unknown_license_policy}".`,
  );
  parts.push(threatSentence(policies));
  return parts.join(" ");
}

/** Runs one tool by name with validated arguments and returns its structured output. */
export async function runPolicyTool(
  deps: PolicyToolDeps,
  name: McpToolName,
  args: Record<string, unknown>,
  context: ToolCallContext,
): Promise<Record<string, unknown>> {
  switch (name) {
    case "check_package": {
      const request = toRequest(args.package as string, args.version as string | undefined);
      return toCheckOutput(await deps.evaluations.evaluate(request, context));
    }
    case "check_packages": {
      const { packages } = args as z.infer<typeof CheckPackagesInputSchema>;
      const requests = packages.map((item, i) =>
        toRequest(item.package, item.version, `packages[${i}].`)
      );
      const results = (await deps.evaluations.evaluateMany(requests, context)).map(toCheckOutput);
      const output: z.infer<typeof CheckPackagesOutputSchema> = {
        results,
        denied: results.filter((r) => r.verdict === "DENIED").length,
      };
      return output;
    }
    case "request_approval": {
      const input = args as z.infer<typeof RequestApprovalInputSchema>;
      const request = toRequest(input.package, input.version);
      const displayName = input.package.split(/[\s=!<>~;\[@(]/)[0] || request.name;
      const row = await deps.approvals.request(
        {
          package: request.name,
          displayName,
          version: request.version,
          rationale: input.rationale,
        },
        context,
      );
      const output: z.infer<typeof RequestApprovalOutputSchema> = {
        id: row.id,
        package: row.package,
        status: row.status,
        project: row.project,
        message: approvalFiledMessage(row.id),
      };
      return output;
    }
    case "explain_policy": {
      const request = toRequest(args.package as string, undefined);
      const snapshot = deps.registry.current();
      const name = normalizeName(request.name);
      const rule = snapshot.byName.get(name) ?? null;
      const { policies } = snapshot.registry;
      const output: z.infer<typeof ExplainPolicyOutputSchema> = {
        package: name,
        registry_version: snapshot.registry.version,
        rule: rule ? { ...rule } : null,
        policies: {
          cve_threshold: policies.cve_threshold,
          block_on_cve: policies.block_on_cve,
          unversioned_cve_scope: policies.unversioned_cve_scope,
          licenses: {
            allowed: [...policies.licenses.allowed],
            denied: [...policies.licenses.denied],
          },
          unknown_license_policy: policies.unknown_license_policy,
        },
        summary: describeRule(snapshot, name),
      };
      return output;
    }
  }
}
