/**
 * The structured values a workflow's caller writes or reads, for `### Formats`
 * of the workflow document: a registry rule and an `exceptions` entry (their
 * JSON Schema generated from the registry validator, and a YAML example the
 * validator accepts, see `formats_test.ts`), and the audit query's parameters
 * (generated from the audit route's query schema).
 *
 * @module
 */
import { z } from "zod";
import { AuditQuerySchema, MAX_AUDIT_PAGE } from "../api/audit.ts";
import { exceptionSchema, packageRuleSchema } from "../registry/schema.ts";

function schemaText(schema: z.ZodType): string {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  });
  return JSON.stringify(json, null, 2);
}

/** The YAML example of a `packages` entry (validated by the tests). */
export const RULE_EXAMPLE = `packages:
  - name: requests
    status: version-constrained
    min_version: "2.32.0"
    reason: "older releases leak Proxy-Authorization (CVE-2024-35195)"
  - name: pycrypto
    status: banned
    reason: "unmaintained since 2013"
    replacement: cryptography`;

/** The YAML example of an `exceptions` entry (validated by the tests). */
export const EXCEPTION_EXAMPLE = `exceptions:
  - package: cryptography
    versions: "==46.0.6"
    vulnerabilities: [CVE-2026-39892]
    reason: "the affected code path is not used; upgrade planned"
    expires: "2026-12-31"
    approved_by: security@example.com`;

/** The audit query's parameters, one a line, with their limits and defaults. */
function auditParameters(): string {
  const json = z.toJSONSchema(AuditQuerySchema, { io: "input", unrepresentable: "any" }) as {
    properties: Record<string, Record<string, unknown>>;
  };
  return Object.entries(json.properties).map(([name, p]) => {
    const limits = [
      p.enum ? `one of ${(p.enum as string[]).join(", ")}` : "",
      p.minimum !== undefined ? `≥ ${p.minimum}` : "",
      p.maximum !== undefined ? `≤ ${p.maximum}` : "",
      p.maxLength !== undefined ? `≤ ${p.maxLength} characters` : "",
      p.default !== undefined ? `default ${p.default}` : "",
    ].filter(Boolean).join("; ");
    return `${name}: ${p.description ?? ""}${limits ? ` (${limits})` : ""}`;
  }).join("\n");
}

/** The formats policyd documents (the shape of the workflow library's `ConventionFormat`). */
export function formats(): {
  name: string;
  meaning: string;
  schema: string;
  schemaLanguage?: string;
  example?: string;
  exampleLanguage?: string;
}[] {
  return [
    {
      name: "registry rule (`packages[]` of the registry YAML)",
      meaning: "one package's rule; the file is REGISTRY_PATH (see Settings). Names are " +
        "PEP 503-normalised, versions PEP 440; `version-constrained` needs `min_version` or " +
        "`max_version`. Check a change with `POST /api/v1/registry/parse-yaml` before committing.",
      schema: schemaText(packageRuleSchema),
      example: RULE_EXAMPLE,
      exampleLanguage: "yaml",
    },
    {
      name: "exception (`exceptions[]` of the registry YAML)",
      meaning:
        "waives named vulnerabilities and/or licences of one package until a date (through " +
        "that day, UTC); an evaluation it applies to lists it in `exceptions_applied`, and the " +
        "security report warns before it runs out. Added through review like any rule change.",
      schema: schemaText(exceptionSchema),
      example: EXCEPTION_EXAMPLE,
      exampleLanguage: "yaml",
    },
    {
      name: "audit query (`GET /api/v1/audit`)",
      meaning: "every parameter narrows the rows, empty ones count as absent; rows come newest " +
        `first, \`limit\` per page (at most ${MAX_AUDIT_PAGE}), \`next_cursor\` fetches the next. ` +
        "Without `project` the X-Policy-Project header narrows them, and without either every " +
        "project's rows are listed; `project=*` lists every project even with the header. " +
        "`since`/`until` take an ISO-8601 instant or a date (`YYYY-MM-DD`); `since` wins over " +
        "`days`. `source` filters by where the call came from " +
        "(X-Policy-Source values), `verdict=CVE_ALERT` lists the scanner's alerts. An invalid " +
        "value is `400` naming the parameter. Parameters:",
      schema: auditParameters(),
      schemaLanguage: "text",
    },
  ];
}
