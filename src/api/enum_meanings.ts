/**
 * The meaning of every value of every enumeration of the API, for the
 * `## Conventions` of `workflows.md` (`conventions.ts`): a data table, with
 * each enumeration's values read from the contract (`enums.ts`) so a value
 * without a meaning is a type error.
 *
 * @module
 */
import {
  ALERT_DELIVERY_STATES,
  ALERT_EVENTS,
  ALERT_SEVERITIES,
  APPROVAL_STATUSES,
  CALL_SOURCES,
  CHANGE_KINDS,
  DATA_STATUSES,
  DENIAL_CATEGORIES,
  PENDING_REASONS,
  REGISTRY_STATUSES,
  REQUEST_PROPOSAL_STATUSES,
  THREAT_KINDS,
  VERDICTS,
} from "./enums.ts";

/** Values in the contract's order, each with its meaning (a missing meaning is a type error). */
function described<T extends string>(
  values: readonly T[],
  meanings: Record<T, string>,
): { name: T; meaning: string }[] {
  return values.map((name) => ({ name, meaning: meanings[name] }));
}

const DENIAL_MEANINGS: Record<(typeof DENIAL_CATEGORIES)[number], string> = {
  DENIAL_BANNED: "the registry bans the package",
  DENIAL_DEPRECATED: "the registry deprecates the package",
  DENIAL_VERSION_CONSTRAINT: "the version is outside the rule's `min_version`/`max_version`",
  DENIAL_CVE: "a known vulnerability at or above the registry's `cve_threshold`",
  DENIAL_LICENSE: "a licence the registry's `policies.licenses` does not allow",
  DENIAL_LICENSE_UNKNOWN: "PyPI gives no recognisable licence and " +
    "`policies.unknown_license_policy` is `deny`",
  DENIAL_DATA_UNAVAILABLE: "OSV or PyPI unreachable and `policies.on_missing_data` is `deny`",
  DENIAL_MALICIOUS: "an OSV malicious-package advisory names it",
  DENIAL_NOT_FOUND: "PyPI knows no such project or release",
  DENIAL_TYPOSQUAT: "a look-alike of a popular project (`policies.typosquat: deny`)",
  DENIAL_NEW_PROJECT: "first released fewer than `policies.min_project_age_days` ago",
  DENIAL_YANKED: "the release was yanked from PyPI",
};

/** Every enumeration: its values in the contract's order, each with its meaning. */
export const ENUMERATIONS: {
  name: string;
  values: { name: string; meaning: string }[];
  meaning: string;
}[] = [
  {
    name: "verdict",
    values: described(VERDICTS, {
      ALLOWED: "use it",
      PROVISIONALLY_ALLOWED: "not in the registry (or too new): may be used while an approval " +
        "request is reviewed",
      DENIED: "do not use it (see `denial_category`, `reason`, `replacement`, `threats`)",
    }),
    meaning: "of every evaluation",
  },
  {
    name: "denial_category",
    values: described(DENIAL_CATEGORIES, DENIAL_MEANINGS),
    meaning: "why a DENIED evaluation was denied (`null` otherwise)",
  },
  {
    name: "verdict / category of an audit row",
    values: described(["CVE_ALERT", "DENIAL_CVE_ALERT"] as const, {
      CVE_ALERT: "an audit row only (never an evaluation's verdict): the scanner found a new " +
        "vulnerability at or above `cve_threshold` in a package the audit log shows in use",
      DENIAL_CVE_ALERT: "the category of a CVE_ALERT row",
    }),
    meaning: "`GET /api/v1/audit?verdict=` and `category=` take every verdict and denial " +
      "category above plus these two (written by the scanner, see Settings: CVE_SCAN_SCHEDULE)",
  },
  {
    name: "threats[].kind",
    values: described(THREAT_KINDS, {
      malicious: "an OSV malicious-package advisory (`id`: `MAL-…`)",
      not_found: "a name or release PyPI does not know (`similar_to`: up to three names it may " +
        "have meant)",
      typosquat: "a look-alike of a popular project (`similar_to`: the project it imitates)",
      new_project: "a project first released fewer than `policies.min_project_age_days` ago",
      yanked: "a release its authors withdrew from PyPI",
    }),
    meaning: "supply-chain threats an evaluation found (every evaluation has `threats`, " +
      "empty when none)",
  },
  {
    name: "data.vulnerabilities.status / data.license.status",
    values: described(DATA_STATUSES, {
      fresh: "fetched from the upstream (OSV, PyPI) for this evaluation",
      cached: "answered from the lookup cache; `fetched_at` says when it was fetched",
      unavailable: "the upstream could not be reached: that check did not run",
      skipped: "not needed: the registry rule alone decided (for example a banned package)",
    }),
    meaning: "what an evaluation knew",
  },
  {
    name: "registry_status",
    values: described(REGISTRY_STATUSES, {
      preferred: "the recommended choice: ALLOWED",
      approved: "ALLOWED",
      "version-constrained": "ALLOWED within `min_version`/`max_version`, DENIED outside " +
        "(DENIAL_VERSION_CONSTRAINT)",
      deprecated: "DENIED (DENIAL_DEPRECATED), usually with a `replacement`",
      banned: "DENIED (DENIAL_BANNED), usually with a `replacement`",
    }),
    meaning: "the registry rule of the package (`null` when the registry has none)",
  },
  {
    name: "status (approval request)",
    values: described(APPROVAL_STATUSES, {
      PENDING_REVIEW: "filed, waiting for an operator",
      APPROVED: "the package has a rule now",
      REJECTED: "an operator turned the request down, with a reason",
      DISMISSED: "an operator closed the request without a decision (a duplicate, noise)",
    }),
    meaning: "of an approval request; `GET /api/v1/approval-requests?status=` also takes " +
      "`all`; an operator rejects (with a reason) or dismisses a pending request",
  },
  {
    name: "kind (registry change log)",
    values: described(CHANGE_KINDS, {
      applied: "a proposer wrote the rule and the registry reloaded",
      opened: "the github proposer opened a pull request",
      amended: "the github proposer updated its open pull request",
      logged: "the log_only proposer only logged the rule",
      reloaded:
        "a reload changed rules with no proposal behind it (a merged pull request, a hand edit)",
      rejected: "an operator rejected an approval request",
      dismissed: "an operator dismissed an approval request",
    }),
    meaning: "what an entry of `GET /api/v1/registry/changes` records: a proposer's result, a " +
      "reload nobody here proposed (`reloaded`), or an operator's decision on a request",
  },
  {
    name: "reason (review queue)",
    values: described(PENDING_REASONS, {
      requested: "someone filed an approval request (its `rationale` is shown)",
      "provisional-no-rationale": "evaluated PROVISIONALLY_ALLOWED, but nobody ever filed a " +
        "request for it",
      "repeatedly-denied": "DENIED three times or more in the audit window",
      "pre-screened": "only ever checked with `policy check` (source `check`), always ALLOWED, " +
        "and not in the registry yet",
    }),
    meaning: "why a package is in `GET /api/v1/registry/pending`, highest signal first",
  },
  {
    name: "proposal_status / result.status",
    values: described(REQUEST_PROPOSAL_STATUSES, {
      opened: "github proposer: a pull request was opened (merge it to make the rule live)",
      amended: "github proposer: an open pull request for the package was updated",
      applied: "local_file, local_git: the rule was written and is live",
      logged: "log_only: nothing changed, the proposal was only logged",
      failed: "the proposer could not do it (`detail` says why); nothing changed",
      queued: "an approval request under local_file or local_git: it approves nothing and " +
        "waits for an operator's `POST /api/v1/registry/proposals`",
      skipped: "an approval request for a package that already has a rule: nothing proposed",
    }),
    meaning: "what the server's proposer (REGISTRY_PROPOSER, see Settings) did",
  },
  {
    name: "event (alert)",
    values: described(ALERT_EVENTS, {
      cve_alert: "the scanner found a vulnerability at or above `cve_threshold` in a package " +
        "in use (severity from its CVSS score)",
      malicious_seen: "a malicious-package advisory for a package used in the last 30 days " +
        "(critical)",
      request_filed: "the first open approval request of a package (info)",
      rule_changed: "a registry rule was added, removed or changed (info)",
      upstream_down: "an instance could not reach OSV or PyPI (high)",
      upstream_up: "that upstream answers again (info)",
    }),
    meaning: "kind of an alert in `GET /api/v1/alerts` and `X-Policyd-Event` (docs/alerts.md)",
  },
  {
    name: "severity (alert)",
    values: described(ALERT_SEVERITIES, {
      info: "for the record; nothing to do",
      low: "a CVSS score below 4.0",
      medium: "a CVSS score from 4.0 (or no score)",
      high: "a CVSS score from 7.0, or an upstream down",
      critical: "a CVSS score from 9.0, or a malicious package in use",
    }),
    meaning: "of an alert, lowest first; each destination takes events at or above its minimum",
  },
  {
    name: "state (alert delivery)",
    values: described(ALERT_DELIVERY_STATES, {
      pending: "waiting or being retried",
      delivered: "accepted by the receiver",
      dead: "dead-lettered after `ALERTS_MAX_ATTEMPTS` tries",
      muted: "muted by an operator",
    }),
    meaning: "of one alert's delivery to one destination; `POST /api/v1/alerts/{id}/retry` " +
      "makes it pending again",
  },
  {
    name: "X-Policy-Source / source",
    values: described(CALL_SOURCES, {
      check: "`policy check` on the command line",
      hook: "an agent's tool-use hook (`policy hook`)",
      precommit: "the git pre-commit hook (`policy precommit`)",
      audit: "`policy audit` of a project's manifests",
      api: "any other API client (the default)",
      mcp: "the MCP server (`policy mcp`)",
      index: "an install through the policy index (`/simple/`, docs/index.md)",
    }),
    meaning: "where a call comes from: audited with each evaluation; `GET /api/v1/audit?source=` " +
      "and the agents report filter by it",
  },
];
