/**
 * The server's settings as the workflow document describes them (`## Settings`
 * of `workflows.md`): every environment variable of every settings area, its
 * type and default read from the same zod schemas the server parses
 * ({@link AREAS}), and its purpose from {@link SETTING_PURPOSES}, which a
 * test keeps complete (a new variable without a purpose fails it).
 *
 * @module
 */
import type { z } from "zod";
import { AREAS } from "./settings.ts";
import {
  booleanVar,
  listVar,
  nonNegativeIntVar,
  nonNegativeVar,
  portVar,
  positiveIntVar,
} from "./config/kinds.ts";

/** One variable as documented: the shape of the workflow library's `ConventionSetting`. */
export interface SettingDoc {
  name: string;
  type: string;
  /** The default as written in the environment; absent: unset. */
  default?: string;
  meaning: string;
}

/** What a variable is for, and its type in words where the schema alone says too little. */
export interface SettingPurpose {
  meaning: string;
  type?: string;
  /** The default in words where it is computed (a host name, another variable). */
  default?: string;
}

const ALERT_EVENTS_TYPE = {
  type: "comma-separated alert events (see `event (alert)` under Enumerations) or `all`",
  default: "all",
};

const UPSTREAM = "a mirror or a loopback server replaying recorded answers works the same";

/** The purpose of every server variable (its meaning, or a {@link SettingPurpose}), keyed by variable. */
export const SETTING_PURPOSES: Record<string, string | SettingPurpose> = {
  POLICY_HOST: "address the server binds to",
  POLICY_PORT: "port the server listens on",
  ALLOWED_ORIGINS: {
    meaning: "origins besides the server's own that may send POSTs (a proxy's public URL)",
    type: "comma-separated origins",
  },
  RATE_LIMIT_PER_MINUTE:
    "requests per caller (identity, else peer address) per minute, `429` beyond; 0 = off",
  REQUEST_READ_TIMEOUT_MS: "time a client has to send its request body (`408` after)",
  HEADER_READ_TIMEOUT_MS: "time a new connection has to finish its request headers; 0 = no limit",
  IDLE_TIMEOUT_MS: "time a keep-alive connection may wait for its next request",
  PARSE_YAML_TIMEOUT_MS: "budget of one `POST /api/v1/registry/parse-yaml` document (`422` after)",
  PARSE_YAML_CONCURRENCY: "`parse-yaml` documents compiled at once (`429` beyond)",
  ALLOWED_HOSTS: {
    meaning: "host names besides loopback and the bind address the server answers to (`421` " +
      "otherwise)",
    type: "comma-separated host names",
  },
  MAX_CONNECTIONS: "connections held at once, `503` beyond; 0 = no cap",
  AUTH_FAILURES_PER_MINUTE: "failed authentications per client address per minute, `429` beyond",
  UPSTREAM_CONCURRENCY: "OSV/PyPI requests in flight at once in the whole process",
  POLICY_DB_PATH: "SQLite database (audit log, approval requests) used when DATABASE_URL is unset",
  DATABASE_URL: {
    meaning: "shared PostgreSQL store for several instances (docs/deployment.md); unset = SQLite " +
      "at POLICY_DB_PATH",
    type: "`postgres://user[:password]@host:port/database`",
  },
  INSTANCE_ID: {
    meaning: "this instance's name in `GET /api/v1/health` and the scanner's pass records",
    default: "<hostname>:<pid>",
  },
  REGISTRY_PATH: {
    meaning: "the registry YAML, the source of truth (not the compiled JSON: policyd compiles " +
      "it itself); unset, ./registry/registry.yaml is read. Setting it drives the proposer " +
      "auto-detection below",
    type: "path of a `.yaml` file",
  },
  REGISTRY_RELOAD_INTERVAL:
    "seconds between checks of the registry file for changes; 0 = only on reload",
  REGISTRY_WEBHOOK_SECRET: "HMAC secret of the merge webhook; unset, every delivery is `403`",
  REGISTRY_PROPOSER: {
    meaning: "what an operator's approval (and an agent's request) does to the registry; unset " +
      "= auto-detected (below)",
    type: "`log_only`, `local_file`, `local_git`, `github` or `module:<specifier>:<Export>`",
    default: "auto",
  },
  REGISTRY_REPO_URL: "git URL of the registry repository the github proposer clones",
  REGISTRY_REPO_WORKDIR: "where the github proposer keeps its clone",
  REGISTRY_REPO_FILE: "path of the registry YAML inside that repository",
  REGISTRY_GITHUB_REPO: {
    meaning: "the repository the github proposer opens pull requests on; unset, taken from " +
      "REGISTRY_REPO_URL",
    type: "`owner/name`",
  },
  REGISTRY_BOT_AUTHOR_NAME: "author name of the proposers' commits",
  REGISTRY_BOT_AUTHOR_EMAIL: "author e-mail of the proposers' commits",
  GITHUB_TOKEN: "token of the github proposer (contents and pull requests: write)",
  GITHUB_API_URL: {
    meaning:
      `GitHub REST API base of the github proposer (GitHub Enterprise: its /api/v3); ${UPSTREAM}`,
  },
  REDIS_URL: {
    meaning:
      "shared lookup cache for several instances; unset = in-process cache, `none` = no cache",
    type: "`redis://…`, `rediss://…` or `none`",
  },
  CACHE_TTL_SECONDS: "how long an OSV/PyPI answer is reused (`cached`)",
  OSV_API_URL: `vulnerability database (OSV's \`POST /v1/query\`); ${UPSTREAM}`,
  PYPI_URL: `PyPI JSON API (\`/pypi/<name>/json\`, \`/pypi/<name>/<version>/json\`): licence, ` +
    `latest version, release dates, yanked; ${UPSTREAM}`,
  LOOKUP_TIMEOUT_MS: "per upstream request; after a failure the upstream is skipped for 30 s",
  POPULAR_PACKAGES_URL: {
    meaning: "top-PyPI-projects JSON the typosquat rule compares names with, fetched before each " +
      "scanner pass; `off` = the copy shipped with policyd",
    type: "URL or `off`",
  },
  CVE_SCAN_SCHEDULE: {
    meaning: "when the scanner re-checks every allowed package against OSV (writes CVE_ALERT " +
      "rows, sets `scanner.last_pass` in health); `off` disables",
    type: "cron expression (5 fields) or `off`",
  },
  POLICY_PROJECT_NAME: "project name of the scanner's audit rows",
  AUTH_ENABLED: "org mode (every route but the public ones needs an identity)",
  AUTH_BACKEND: {
    meaning: "how org mode authenticates",
    type: "`header`, `webhook`, `apikey` or `module:<specifier>:<Export>`",
  },
  AUTH_VERIFY_URL: "verifier the webhook backend asks (required with it)",
  OPERATOR_GROUP: "group (X-Forwarded-Groups) whose members may approve and reload in org mode",
  TRUSTED_PROXIES: {
    meaning: "peers whose X-Forwarded-User/-Email/-Groups headers are believed",
    type: "comma-separated CIDRs (IPv4 or IPv6)",
  },
  LOG_LEVEL: "structured JSON logs on stderr from this level up",
  INDEX_UPSTREAM_URL:
    `the simple index (PEP 503/691) the policy index reads project pages and files ` +
    `from (docs/index.md); ${UPSTREAM}`,
  ALERTS_SLACK_WEBHOOK_URL: "alerts to a Slack-compatible incoming webhook (docs/alerts.md); " +
    "offline, a loopback server that accepts the POST",
  ALERTS_SLACK_EVENTS: { meaning: "events the Slack destination takes", ...ALERT_EVENTS_TYPE },
  ALERTS_SLACK_MIN_SEVERITY: "lowest severity the Slack destination takes",
  ALERTS_WEBHOOK_URL: "alerts as JSON POSTs signed with HMAC-SHA256 (X-Policyd-Signature-256; " +
    "docs/alerts.md); offline, a loopback receiver works",
  ALERTS_WEBHOOK_SECRET: {
    meaning: "the key of that signature; required with ALERTS_WEBHOOK_URL",
    type: "string of 16 or more characters",
  },
  ALERTS_WEBHOOK_EVENTS: { meaning: "events the webhook destination takes", ...ALERT_EVENTS_TYPE },
  ALERTS_WEBHOOK_MIN_SEVERITY: "lowest severity the webhook destination takes",
  ALERTS_GITHUB_REPO: {
    meaning: "one alert issue per package and event kind in this repository (with GITHUB_TOKEN, " +
      "through GITHUB_API_URL)",
    type: "`owner/name`",
  },
  ALERTS_GITHUB_EVENTS: { meaning: "events the GitHub destination takes", ...ALERT_EVENTS_TYPE },
  ALERTS_GITHUB_MIN_SEVERITY: "lowest severity the GitHub destination takes",
  ALERTS_DASHBOARD_URL: "base URL of the dashboard links in alert messages",
  ALERTS_MAX_ATTEMPTS: "tries of one delivery before it is dead-lettered (at most 100)",
  ALERTS_RETRY_BASE_MS:
    "back-off after the first failed delivery; doubles per failure up to an hour",
  ALERTS_POLL_MS: "how often the alert outbox is polled for due deliveries",
  ALERTS_TIMEOUT_MS: "time limit of one delivery call",
  ALERTS_UPSTREAM_DOWN_AFTER_S: "seconds OSV or PyPI must fail before `upstream_down` (0: at the " +
    "first failure)",
  INDEX_PAGE_FRESH_SECONDS:
    "seconds a fetched project page is served before it is revalidated upstream",
};

const KINDS = new Map<z.ZodType, string>([
  [booleanVar, "boolean (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`)"],
  [portVar, "port (0–65535; 0 picks a free one)"],
  [positiveIntVar, "integer ≥ 1"],
  [nonNegativeIntVar, "integer ≥ 0"],
  [nonNegativeVar, "number ≥ 0"],
  [listVar, "comma-separated list"],
]);

interface Def {
  type: string;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  format?: string;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** The type of a variable's schema in words (defaults and optionality unwrapped). */
export function schemaType(schema: z.ZodType): string {
  let inner = schema;
  while (["default", "optional"].includes(defOf(inner).type)) inner = defOf(inner).innerType!;
  const known = KINDS.get(inner);
  if (known !== undefined) return known;
  const def = defOf(inner);
  if (def.type === "enum") {
    return `one of ${Object.values(def.entries!).map((v) => `\`${v}\``).join(", ")}`;
  }
  if (def.type === "literal") return def.values!.map((v) => `\`${v}\``).join(", ");
  if (def.type === "union") return def.options!.map(schemaType).join(" or ");
  if (def.type === "string" && def.format === "url") return "URL";
  return def.type;
}

function defaultOf(schema: z.ZodType): string | undefined {
  const value: unknown = schema.safeParse(undefined).data;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  return Array.isArray(value) ? value.join(",") : String(value);
}

/**
 * Every server variable, area by area in the server's order, with its type,
 * default and purpose. Throws when a variable has no purpose in
 * {@link SETTING_PURPOSES} (so the document cannot miss one).
 *
 * @example
 * ```ts
 * describeSettings().find((s) => s.name === "PYPI_URL")?.default; // "https://pypi.org"
 * ```
 */
export function describeSettings(): SettingDoc[] {
  return Object.values(AREAS).flatMap((area) =>
    Object.entries(area.variables as Record<string, z.ZodType>).map(([name, schema]) => {
      const given = SETTING_PURPOSES[name];
      if (given === undefined) {
        throw new Error(`${name} has no purpose in SETTING_PURPOSES (src/settings_doc.ts)`);
      }
      const purpose = typeof given === "string" ? { meaning: given } : given;
      const fallback = defaultOf(schema);
      const value = purpose.default ?? fallback;
      return {
        name,
        type: purpose.type ?? schemaType(schema),
        ...(value === undefined ? {} : { default: value }),
        meaning: purpose.meaning,
      };
    })
  );
}
