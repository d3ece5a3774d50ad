/**
 * Shared set-up of the dashboard browser tests: a real policyd on loopback
 * with small fake lookup sources (so CVE and license verdicts happen without
 * the internet), and audit rows seeded through the real evaluate API.
 *
 * @module
 */
import { join } from "node:path";
import type { LicenseFacts, VulnerabilityFacts } from "../../src/core/types.ts";
import type { LicenseSource, VulnerabilitySource } from "../../src/lookups/types.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ALL_VERSIONS = [{ versions: [], ranges: [{ events: [{ introduced: "0" }] }] }];

const VULNERABILITIES: Record<string, VulnerabilityFacts> = {
  vulnlib: {
    status: "ok",
    vulnerabilities: [{
      id: "CVE-2024-0001",
      aliases: ["GHSA-test-0001"],
      score: 9.8,
      affected: ALL_VERSIONS,
    }],
  },
  requests: {
    status: "ok",
    vulnerabilities: [{ id: "CVE-2023-32681", aliases: [], score: 7.5, affected: ALL_VERSIONS }],
  },
};

const LICENSES: Record<string, string> = { gpllib: "GPL-3.0-only", mysterylib: "UNKNOWN" };

/** Vulnerability data for two packages; none for the rest. */
export const fakeVulnerabilities: VulnerabilitySource = {
  query: (name) => Promise.resolve(VULNERABILITIES[name] ?? { status: "ok", vulnerabilities: [] }),
};

/** License data: GPL for `gpllib`, UNKNOWN for `mysterylib`, MIT otherwise. */
export const fakeLicenses: LicenseSource = {
  lookup: (name): Promise<LicenseFacts> => {
    const license = LICENSES[name] ?? "MIT";
    return Promise.resolve({
      status: "ok",
      license,
      license_raw: license === "UNKNOWN" ? null : license,
      latest_version: "1.0",
    });
  },
};

/** A settable clock for the server: audit rows and report windows follow it. */
export interface TestClock {
  now: Date;
}

/** Starts policyd with the fake lookups; `env` adds settings, `clock` sets its time. */
export function startDashboardServer(
  env: Record<string, string> = {},
  clock?: TestClock,
): Promise<TestServer> {
  return startTestServer({
    // Point the real upstream URLs at a closed loopback port too, in case lookups get wired from settings.
    env: { OSV_API_URL: "http://127.0.0.1:9", PYPI_URL: "http://127.0.0.1:9", ...env },
    build: {
      lookups: { vulnerabilities: fakeVulnerabilities, licenses: fakeLicenses },
      ...(clock ? { now: () => new Date(clock.now) } : {}),
    },
  });
}

/** The packages of the history, with how a project asks for them. */
const HISTORY_CALLS: Array<[pkg: string, version?: string]> = [
  ["httpx"],
  ["flask"],
  ["numpy"],
  ["pydantic"],
  ["pycrypto"],
  ["nose"],
  ["pyyaml", "5.3"],
  ["vulnlib", "1.0"],
  ["gpllib"],
  ["mysterylib"],
  ["six"],
  ["click"],
];

const PROJECTS = ["web", "api", "data"];
const AGENTS: Array<[string, string] | undefined> = [
  ["claude-code", "1.0"],
  ["cursor", "0.9"],
  undefined,
];

/**
 * Writes about 50 evaluations over the 14 days before `clock.now` through the
 * real evaluate API (three projects, three agents, every verdict and denial
 * category), then sets the clock back.
 */
export async function seedHistory(server: TestServer, clock: TestClock): Promise<number> {
  const end = clock.now;
  let written = 0;
  for (let day = 13; day >= 0; day--) {
    const calls = 2 + ((day * 7) % 4); // 2–5 a day, in a fixed pattern
    for (let i = 0; i < calls; i++) {
      const [pkg, version] = HISTORY_CALLS[(day * 5 + i * 3) % HISTORY_CALLS.length];
      clock.now = new Date(end.getTime() - day * 86_400_000 - (i + 1) * 3_600_000);
      await evaluate(server, pkg, {
        version,
        project: PROJECTS[(day + i) % PROJECTS.length],
        agent: AGENTS[(day + 2 * i) % AGENTS.length],
      });
      written++;
    }
  }
  clock.now = end;
  return written;
}

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  version?: string;
  project?: string;
  agent?: [model: string, version: string];
}

/** Calls the real `GET /api/v1/evaluate` and returns the Evaluation. */
export async function evaluate(
  server: TestServer,
  pkg: string,
  options: EvaluateOptions = {},
): Promise<{ verdict: string; registry_status: string | null; denial_category: string | null }> {
  const query = new URLSearchParams({ package: pkg });
  if (options.version) query.set("version", options.version);
  const headers: Record<string, string> = { "x-policy-project": options.project ?? "default" };
  if (options.agent) {
    headers["x-policy-agent-model"] = options.agent[0];
    headers["x-policy-agent-version"] = options.agent[1];
  }
  const response = await fetch(`${server.url}/api/v1/evaluate?${query}`, { headers });
  const body = await response.json();
  if (!response.ok) throw new Error(`evaluate ${pkg}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Seeds the audit log through the API: a banned package, two CVE denials
 * (one of a preferred registry package), a license denial, an unknown
 * license, a provisional package, plus one scanner alert row.
 */
export async function seedAudit(server: TestServer): Promise<void> {
  const claude: [string, string] = ["claude-code", "1.0"];
  const expect = async (pkg: string, options: EvaluateOptions, verdict: string) => {
    const result = await evaluate(server, pkg, options);
    if (result.verdict !== verdict) {
      throw new Error(
        `seed: ${pkg} gave ${result.verdict}, expected ${verdict}: ${JSON.stringify(result)}`,
      );
    }
  };
  await expect("pycrypto", { project: "web", agent: claude }, "DENIED");
  await expect("vulnlib", { version: "1.0", project: "web", agent: claude }, "DENIED");
  await expect(
    "requests",
    { version: "2.5.0", project: "api", agent: ["cursor", "0.9"] },
    "DENIED",
  );
  await expect("gpllib", { project: "api" }, "DENIED");
  await expect("mysterylib", { project: "api" }, "PROVISIONALLY_ALLOWED");
  await expect("six", { project: "web" }, "PROVISIONALLY_ALLOWED");
  // The scanner is not under test here: write its alert row the way it does.
  await server.running.built.store.audit.insert({
    package: "jinja2",
    version: null,
    license: null,
    verdict: "CVE_ALERT",
    project: "policyd",
    requester: "cve-scanner",
    agent_model: null,
    agent_version: null,
    source: "api",
    denial_category: "DENIAL_CVE_ALERT",
    cve_ids: ["CVE-2024-22195"],
    max_cvss: 7.5,
    registry_status: "version-constrained",
    registry_version: "2026.11.21",
    license_raw: null,
    reason: "scanner: CVE-2024-22195 (7.5) at or over the threshold 7.0",
  });
}

/**
 * The screenshot folder of one suite: `.test-output/screenshots/<suite>/` in
 * the repository (git-ignored), or `$POLICYD_SCREENSHOT_DIR/<suite>/`. It is
 * emptied first, so it holds exactly the last run's pictures.
 */
export async function screenshotDir(suite: string): Promise<string> {
  const base = Deno.env.get("POLICYD_SCREENSHOT_DIR") ||
    join(REPO_ROOT, ".test-output", "screenshots");
  const dir = join(base, suite);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}
