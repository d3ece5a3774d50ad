/**
 * policyd's API conventions for the workflow document (`## Conventions` of
 * `workflows.md`): base path, authentication, errors, headers and
 * enumerations, built from the wire contract — the route contracts, the
 * enumerations and the header table of `src/api` — so the document cannot
 * drift from the API. `deno task test` hands this module to the workflows
 * runner (`--conventions src/api/conventions.ts`).
 *
 * A plain object in the shape of the workflow library's `ApiConventions`
 * (the library validates it when it loads it; the contract imports nothing
 * but zod and the pure core).
 *
 * @module
 */
import {
  API_ROUTES,
  fullPath,
  registryParseRoute,
  registryWebhookRoute,
  type RouteContract,
} from "./mod.ts";
import { MAX_BODY_BYTES } from "./contract.ts";
import { CONTEXT_HEADERS } from "./headers.ts";
import { FieldErrorSchema, PROBLEM_CONTENT_TYPE, ProblemSchema } from "./problem.ts";
import { ENUMERATIONS } from "./enum_meanings.ts";

/** `{a, b, c?}`: the members of an object schema, optional ones marked (read from the contract). */
function members(
  schema: { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> },
) {
  const names = Object.entries(schema.shape).map(([name, member]) =>
    member.safeParse(undefined).success ? `${name}?` : name
  );
  return `{${names.join(", ")}}`;
}

const call = (route: RouteContract) => `\`${route.method.toUpperCase()} ${fullPath(route)}\``;
const list = (routes: readonly RouteContract[]) => routes.map(call).join(", ");

const PUBLIC = API_ROUTES.filter((route) => route.public && route !== registryWebhookRoute);
const OPERATOR = API_ROUTES.filter((route) => route.operator);

/** Every documented error status, with the routes that answer it and when. */
function errorStatuses(): { name: string; meaning: string }[] {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, text: string) =>
    byStatus.set(status, [...(byStatus.get(status) ?? []), text]);
  add(401, "any route but the public ones, in org mode, without an accepted identity");
  add(404, "an unknown path");
  add(
    403,
    "any POST sent with an `Origin` header that is neither the server's own nor in its " +
      "ALLOWED_ORIGINS (cross-site guard; clients that send no `Origin` are not affected)",
  );
  add(413, `any request whose body exceeds ${MAX_BODY_BYTES} bytes (1 MiB)`);
  add(
    415,
    "any POST whose body is not the route's media type (`application/json` unless the route " +
      "says otherwise; the response's `Accept-Post` lists what it takes)",
  );
  add(
    429,
    `${call(registryParseRoute)}: too many documents being compiled at once; retry after ` +
      "the `Retry-After` seconds",
  );
  for (const route of API_ROUTES) {
    for (const [status, response] of Object.entries(route.responses)) {
      if (Number(status) >= 400) add(Number(status), `${call(route)}: ${response.description}`);
    }
  }
  return [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, texts]) => ({
    name: String(status),
    meaning: texts.join("; "),
  }));
}

/** policyd's conventions (the `conventions` export the workflows runner loads). */
export const conventions = {
  basePath: "/api/v1",
  authentication: {
    summary: "The server runs in one of two modes (its `AUTH_ENABLED` setting). " +
      "Single-user mode (the default, and `policyd quickstart`): no authentication, every caller " +
      "is `local` and may do everything. Org mode (`AUTH_ENABLED=true`): every route needs an " +
      `identity except the public ones (${list(PUBLIC)}) and the merge webhook ` +
      `(${call(registryWebhookRoute)}), which is guarded by its HMAC signature instead. ` +
      "A missing or rejected identity " +
      'is `401` with a `WWW-Authenticate` header and `detail: "authentication required"`, ' +
      "whatever the cause. Operators are the members of the server's `OPERATOR_GROUP` (default " +
      `\`policy-admins\`); only they may call ${list(OPERATOR)} — anyone else gets \`403\` ` +
      "(in single-user mode everyone is an operator).",
    modes: [
      {
        name: "header (org mode's usual backend)",
        meaning: "an authenticating gateway in front of policyd sends `X-Forwarded-User` " +
          "(required), `X-Forwarded-Email` and `X-Forwarded-Groups` (comma-separated); policyd " +
          "believes them only from peers in `TRUSTED_PROXIES`. A client behind the gateway " +
          "authenticates to the gateway; a call from outside those peers is `401`.",
      },
      {
        name: "webhook",
        meaning: "policyd asks the server's `AUTH_VERIFY_URL` to verify the caller's " +
          "`Authorization` header (for example `Bearer <token>`).",
      },
    ],
  },
  errors: {
    summary: "Every error (status 400 and above) is an RFC 9457 problem document " +
      `\`${members(ProblemSchema)}\`: \`type\` is \`https://policyd.dev/problems/<slug>\`, ` +
      "`detail` says what happened, and `errors` lists field-level problems as " +
      `\`[${members(FieldErrorSchema)}]\` (for example \`packages[3].package\`). ` +
      "A client mistake is never a 5xx. " +
      "Every response carries `X-Request-Id`; quote it when reporting a 5xx.",
    mediaType: PROBLEM_CONTENT_TYPE,
    statuses: errorStatuses(),
  },
  headers: [
    ...Object.entries(CONTEXT_HEADERS).map(([name, meaning]) => ({
      name,
      direction: "request" as const,
      meaning,
    })),
    {
      name: "Content-Type",
      direction: "request" as const,
      meaning: "`application/json` on every request with a body (another type is `415`)",
    },
    {
      name: "Origin",
      direction: "request" as const,
      meaning: "sent by browsers; a POST from another origin than the server's own (or its " +
        "ALLOWED_ORIGINS) is `403`. Scripts and CLIs send none",
    },
    {
      name: "X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256",
      direction: "request" as const,
      meaning: "the merge webhook's event name, its unique delivery id (required; a repeated " +
        "id is answered as a duplicate) and `sha256=<hex HMAC-SHA256 of the raw body " +
        "keyed with the server's REGISTRY_WEBHOOK_SECRET>`",
    },
    {
      name: "If-None-Match",
      direction: "request" as const,
      meaning: "on the documents (`workflows.md`, `workflows.json`) and `GET /registry`: " +
        "answers `304` while unchanged",
    },
    {
      name: "WWW-Authenticate",
      direction: "response" as const,
      meaning: "on every `401`: the challenge of the authentication backend",
    },
    {
      name: "Retry-After",
      direction: "response" as const,
      meaning: "on `429`: seconds to wait before retrying",
    },
    {
      name: "X-Request-Id",
      direction: "response" as const,
      meaning: "on every response; the server log's id of the request",
    },
    {
      name: "ETag",
      direction: "response" as const,
      meaning: "on the documents and `GET /registry`, for `If-None-Match`",
    },
  ],
  enumerations: ENUMERATIONS,
  notes: [
    "Every evaluation and approval belongs to a project: the `project` query parameter or the " +
    "`X-Policy-Project` header (default `default`). Package names are PEP 508 names, " +
    "compared PEP 503-normalised; `package=name==1.2` is the same as `package=name&version=1.2`.",
    "When vulnerability or licence data cannot be fetched (OSV or PyPI unreachable), evaluation " +
    "still answers `200`: `data.vulnerabilities.status` (or `data.license.status`) is " +
    "`unavailable`, `cves` is empty, `license` and `latest_version` are `null`, and `reason` says " +
    "which data was missing. What the verdict does then is the registry's " +
    "`policies.on_missing_data`: `allow` (the default: the verdict rests on the registry alone, so a " +
    "`preferred` or `approved` package is still ALLOWED), `provisional` (ALLOWED becomes " +
    "PROVISIONALLY_ALLOWED) or `deny` (DENIED with `DENIAL_DATA_UNAVAILABLE`). An empty `cves` " +
    "with an unavailable status means 'not checked', never 'no vulnerabilities'.",
  ],
};
