/**
 * The conventions policyd's workflow document opens with: the API's own
 * (`src/api/conventions.ts`, built from the wire contract) and the server's
 * settings (`## Settings`), built from the settings schemas the server parses
 * (`src/settings_doc.ts`), and the formats of `src/workflows/formats.ts`. `deno task test` hands this module to the
 * workflows runner (`--conventions src/workflows/conventions.ts`).
 *
 * @module
 */
import { conventions as api } from "../api/conventions.ts";
import { describeSettings } from "../settings_doc.ts";
import { formats } from "./formats.ts";

const SUMMARY = "The server reads its settings from environment variables at start " +
  "(`policyd check-config` checks them, `--env-file F` reads a dotenv file); an empty value " +
  "counts as unset. A workflow's **Requires:** line names the variables its outcome depends on; " +
  "the last column lists those workflows.";

const NOTES = [
  "**Proposer auto-detection** (REGISTRY_PROPOSER unset): `github` when REGISTRY_REPO_URL is set; " +
  "else `log_only` when REGISTRY_PATH is unset; else `local_git` when the registry file's " +
  "directory is inside a git work tree, `local_file` when it is writable, `log_only` otherwise. " +
  "`GET /api/v1/health` shows the proposer in use (`proposer`). `policyd quickstart` sets " +
  "REGISTRY_PROPOSER=local_file, REGISTRY_PATH and POLICY_DB_PATH under `.policyd/` (written to " +
  "`.policyd/quickstart.env`) and leaves REDIS_URL unset (in-process cache). With `log_only` an " +
  "approval changes nothing (`logged`); with `local_file`/`local_git` an agent's request waits " +
  "for an operator (`queued`) and an operator's proposal is live at once (`applied`).",
  "**Upstreams.** Decisions use OSV (OSV_API_URL: vulnerabilities) and PyPI (PYPI_URL: licence, " +
  "`latest_version`, release dates, yanked releases, whether a name exists); the policy index " +
  "reads INDEX_UPSTREAM_URL; the github proposer calls GITHUB_API_URL. Each is a base URL: point " +
  "it at a mirror, or offline at a loopback HTTP server that replays recorded answers (OSV: " +
  "`POST /v1/query`, and for the scanner `POST /v1/querybatch` and `GET /v1/vulns/<id>`; PyPI: `GET /pypi/<name>/json` and `/pypi/<name>/<version>/json`; simple " +
  "index: `GET /simple/<name>/`; GitHub: the REST routes of pull requests and contents). When an " +
  "upstream cannot be reached the evaluation still answers `200` with that data `unavailable` " +
  "(see Notes above): `latest_version` is `null`, so a replacement cannot be pinned from it.",
  "**A scan having run.** `CVE_ALERT` audit rows and health's `scanner.last_pass` appear only " +
  "after a scanner pass (CVE_SCAN_SCHEDULE, default every 6 hours; the first pass runs at the " +
  "first scheduled time, not at start-up; with several instances one of them runs each pass).",
];

/** policyd's conventions with its settings (the `conventions` export the runner loads). */
export const conventions = {
  ...api,
  formats: formats(),
  settings: { summary: SUMMARY, variables: describeSettings(), notes: NOTES },
};
