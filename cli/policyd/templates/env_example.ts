/**
 * The environment template `policyd init` writes as `.env.example`: every
 * server setting of SPEC §4 with its default and meaning, commented out so
 * an unedited copy changes nothing.
 *
 * @module
 */

/** One documented variable: name, default as written in an env file (empty = unset), meaning. */
export interface EnvVariable {
  name: string;
  default: string;
  meaning: string;
}

/** Sections of variables, in the order of SPEC §4. */
export const ENV_SECTIONS: ReadonlyArray<{ title: string; variables: EnvVariable[] }> = [
  {
    title:
      "Server (compose.yaml fixes POLICY_HOST, POLICY_PORT and POLICY_DB_PATH inside the container)",
    variables: [
      { name: "POLICY_HOST", default: "127.0.0.1", meaning: "bind address" },
      { name: "POLICY_PORT", default: "8765", meaning: "port" },
      {
        name: "POLICY_DB_PATH",
        default: "./policyd.db",
        meaning: "SQLite audit/approval database",
      },
      {
        name: "DATABASE_URL",
        default: "",
        meaning:
          "postgres://user:password@host:5432/db = shared PostgreSQL store (several instances); unset = SQLite at POLICY_DB_PATH (compose.yaml of init --postgres sets it)",
      },
      {
        name: "INSTANCE_ID",
        default: "",
        meaning: "name of this instance in /health and scanner records; unset = <hostname>:<pid>",
      },
      {
        name: "POLICY_PROJECT_NAME",
        default: "policyd",
        meaning: "the server's own project name (scanner rows)",
      },
      {
        name: "LOG_LEVEL",
        default: "info",
        meaning: "debug | info | warn | error (JSON logs on stderr)",
      },
    ],
  },
  {
    title: "HTTP limits (set RATE_LIMIT_PER_MINUTE in org mode; see docs/operations.md)",
    variables: [
      {
        name: "RATE_LIMIT_PER_MINUTE",
        default: "0",
        meaning: "requests per caller (identity, else peer address) per minute; 0 = unlimited",
      },
      {
        name: "ALLOWED_ORIGINS",
        default: "",
        meaning:
          "comma-separated origins besides the server's own that may POST (e.g. the public URL behind a proxy)",
      },
      {
        name: "REQUEST_READ_TIMEOUT_MS",
        default: "30000",
        meaning: "time a client has to send its request body (408 after)",
      },
      {
        name: "HEADER_READ_TIMEOUT_MS",
        default: "10000",
        meaning: "time a new connection has to finish its request headers (closed after; 0 = none)",
      },
      {
        name: "IDLE_TIMEOUT_MS",
        default: "60000",
        meaning: "time a keep-alive connection may wait for its next request (0 = none)",
      },
      {
        name: "PARSE_YAML_TIMEOUT_MS",
        default: "5000",
        meaning: "time budget of one parse-yaml document (422 after)",
      },
      {
        name: "PARSE_YAML_CONCURRENCY",
        default: "2",
        meaning: "parse-yaml documents compiled at once (429 beyond)",
      },
      {
        name: "ALLOWED_HOSTS",
        default: "",
        meaning:
          "comma-separated host names the server answers to besides loopback and the bind address (421 otherwise), e.g. the public name behind a proxy",
      },
      {
        name: "MAX_CONNECTIONS",
        default: "1024",
        meaning: "connections held at once (503 beyond; 0 = no cap)",
      },
      {
        name: "AUTH_FAILURES_PER_MINUTE",
        default: "30",
        meaning: "failed authentications per client address per minute (429 beyond; 0 = no limit)",
      },
      {
        name: "UPSTREAM_CONCURRENCY",
        default: "64",
        meaning: "OSV/PyPI requests in flight at once in the whole process",
      },
    ],
  },
  {
    title:
      "Registry (compose.yaml fixes REGISTRY_PATH=/registry/registry.yaml, i.e. ./registry here)",
    variables: [
      {
        name: "REGISTRY_PATH",
        default: "./registry/registry.yaml",
        meaning: "registry YAML, the source of truth",
      },
      {
        name: "REGISTRY_RELOAD_INTERVAL",
        default: "5",
        meaning: "seconds between mtime polls; 0 disables",
      },
      {
        name: "REGISTRY_WEBHOOK_SECRET",
        default: "",
        meaning: "HMAC secret of the merge webhook; unset = webhook answers 403",
      },
      {
        name: "REGISTRY_PROPOSER",
        default: "",
        meaning:
          "unset = auto-detect; log_only | local_file | local_git | github | module:<specifier>:<Export>",
      },
      {
        name: "REGISTRY_REPO_URL",
        default: "",
        meaning: "github proposer: repository to clone (opt-in)",
      },
      {
        name: "REGISTRY_REPO_WORKDIR",
        default: "./.policyd/registry-repo",
        meaning: "github proposer: clone directory",
      },
      {
        name: "REGISTRY_REPO_FILE",
        default: "registry/registry.yaml",
        meaning: "path of the YAML inside that repository",
      },
      {
        name: "REGISTRY_GITHUB_REPO",
        default: "",
        meaning: "owner/name for the GitHub API; unset = from REGISTRY_REPO_URL",
      },
      { name: "REGISTRY_BOT_AUTHOR_NAME", default: "policyd-bot", meaning: "commit author name" },
      {
        name: "REGISTRY_BOT_AUTHOR_EMAIL",
        default: "policyd-bot@users.noreply.github.com",
        meaning: "commit author email",
      },
      {
        name: "GITHUB_TOKEN",
        default: "",
        meaning: "github proposer: API token (keep it out of version control)",
      },
      {
        name: "GITHUB_API_URL",
        default: "https://api.github.com",
        meaning: "GitHub API base (GitHub Enterprise)",
      },
    ],
  },
  {
    title: "Lookups and cache (compose.yaml defaults REDIS_URL to its redis service)",
    variables: [
      {
        name: "REDIS_URL",
        default: "",
        meaning: "unset = embedded in-process cache; redis://… shared; none = no cache",
      },
      { name: "CACHE_TTL_SECONDS", default: "21600", meaning: "lookup cache time-to-live" },
      { name: "OSV_API_URL", default: "https://api.osv.dev", meaning: "vulnerability database" },
      { name: "PYPI_URL", default: "https://pypi.org", meaning: "package index JSON API" },
      { name: "LOOKUP_TIMEOUT_MS", default: "4000", meaning: "per upstream request" },
      {
        name: "CVE_SCAN_SCHEDULE",
        default: "0 */6 * * *",
        meaning: "cron schedule of the CVE scanner; off disables",
      },
      {
        name: "POPULAR_PACKAGES_URL",
        default: "https://hugovk.github.io/top-pypi-packages/top-pypi-packages.min.json",
        meaning:
          "top PyPI projects for the typosquat rule, fetched before each scanner pass; off = shipped copy",
      },
    ],
  },
  {
    title: "Alerts (docs/alerts.md; a destination is on when its URL or repository is set)",
    variables: [
      {
        name: "ALERTS_SLACK_WEBHOOK_URL",
        default: "",
        meaning: "Slack-compatible incoming webhook",
      },
      { name: "ALERTS_SLACK_EVENTS", default: "all", meaning: "event kinds Slack takes" },
      { name: "ALERTS_SLACK_MIN_SEVERITY", default: "info", meaning: "least severe event" },
      {
        name: "ALERTS_WEBHOOK_URL",
        default: "",
        meaning: "generic JSON webhook (signed, X-Policyd-Signature-256)",
      },
      {
        name: "ALERTS_WEBHOOK_SECRET",
        default: "",
        meaning: "HMAC-SHA256 secret of the webhook, at least 16 characters",
      },
      { name: "ALERTS_WEBHOOK_EVENTS", default: "all", meaning: "event kinds the webhook takes" },
      { name: "ALERTS_WEBHOOK_MIN_SEVERITY", default: "info", meaning: "least severe event" },
      {
        name: "ALERTS_GITHUB_REPO",
        default: "",
        meaning: "owner/name: one alert issue per package and event kind (GITHUB_TOKEN)",
      },
      { name: "ALERTS_GITHUB_EVENTS", default: "all", meaning: "event kinds GitHub takes" },
      { name: "ALERTS_GITHUB_MIN_SEVERITY", default: "info", meaning: "least severe event" },
      {
        name: "ALERTS_DASHBOARD_URL",
        default: "http://127.0.0.1:8765",
        meaning: "base URL of the dashboard links in alerts",
      },
      { name: "ALERTS_MAX_ATTEMPTS", default: "8", meaning: "tries before the dead letter" },
      {
        name: "ALERTS_RETRY_BASE_MS",
        default: "2000",
        meaning: "back-off after the first failure (doubles, at most an hour)",
      },
      { name: "ALERTS_POLL_MS", default: "2000", meaning: "outbox polling interval" },
      { name: "ALERTS_TIMEOUT_MS", default: "10000", meaning: "time limit of one delivery" },
      {
        name: "ALERTS_UPSTREAM_DOWN_AFTER_S",
        default: "300",
        meaning: "seconds OSV or PyPI must fail before upstream_down",
      },
    ],
  },
  {
    title: "The policy index (installers resolve through /simple/; docs/index.md)",
    variables: [
      {
        name: "INDEX_UPSTREAM_URL",
        default: "https://pypi.org/simple/",
        meaning: "simple index the policy index reads project pages and files from",
      },
      {
        name: "INDEX_PAGE_FRESH_SECONDS",
        default: "60",
        meaning: "seconds a fetched page is served before it is revalidated upstream",
      },
    ],
  },
  {
    title: "Authentication (org mode)",
    variables: [
      {
        name: "AUTH_ENABLED",
        default: "false",
        meaning: "true = org mode; false = everyone is the local user",
      },
      {
        name: "AUTH_BACKEND",
        default: "header",
        meaning: "header | webhook | apikey | module:<specifier>:<Export>",
      },
      { name: "AUTH_VERIFY_URL", default: "", meaning: "webhook backend: verifier URL" },
      {
        name: "OPERATOR_GROUP",
        default: "policy-admins",
        meaning: "group allowed to reload and propose in org mode",
      },
      {
        name: "TRUSTED_PROXIES",
        default: "127.0.0.1/32",
        meaning: "comma-separated CIDRs whose X-Forwarded-* headers are trusted",
      },
    ],
  },
  {
    title: "Stack only (read by compose.yaml, not by policyd)",
    variables: [
      {
        name: "POLICYD_SOURCE",
        default: "",
        meaning: "policyd source checkout used as the image build context",
      },
      {
        name: "POSTGRES_PASSWORD",
        default: "",
        meaning: "init --postgres stack: password of its PostgreSQL service (default policyd)",
      },
      {
        name: "POLICY_PUBLISHED_PORT",
        default: "8765",
        meaning: "host port (published on 127.0.0.1 only)",
      },
    ],
  },
];

function quote(value: string): string {
  return /[\s#"'$*]/.test(value) ? JSON.stringify(value) : value;
}

/** Renders `.env.example`. */
export function envExample(): string {
  const lines = [
    "# policyd settings, written by `policyd init`. Copy to .env and uncomment what you change.",
    "# Empty values count as unset. `policyd check-config` validates the result.",
  ];
  for (const section of ENV_SECTIONS) {
    lines.push("", `# --- ${section.title}`);
    for (const v of section.variables) {
      lines.push(`# ${v.meaning}${v.default === "" ? " (default: unset)" : ""}`);
      lines.push(`# ${v.name}=${quote(v.default)}`);
    }
  }
  return lines.join("\n") + "\n";
}
