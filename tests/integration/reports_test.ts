import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { NewAuditRow } from "../../src/store/types.ts";
import { auditRow } from "../helpers/audit_rows.ts";

const row = auditRow;

const DAY = 86_400_000;

async function seed(dbPath: string) {
  // Two stores on one file: the server's and this seeder's, as with several workers.
  let clock = Date.now() - 40 * DAY;
  const store = openSqliteStore(dbPath, { now: () => new Date(clock) });
  // An old row outside the 30-day window.
  await store.audit.insert(
    row({
      package: "ancient",
      verdict: "DENIED",
      denial_category: "DENIAL_LICENSE",
      license: "GPL-3.0-only",
    }),
  );
  clock = Date.now() - 2 * DAY;
  const rows: NewAuditRow[] = [
    row({
      package: "gpl-lib",
      license: "GPL-3.0-only",
      verdict: "DENIED",
      denial_category: "DENIAL_LICENSE",
      project: "alpha",
      agent_model: "claude",
      agent_version: "4.5",
    }),
    row({
      package: "gpl-lib",
      license: "GPL-3.0-only",
      verdict: "DENIED",
      denial_category: "DENIAL_LICENSE",
      project: "beta",
      agent_model: "claude",
      agent_version: "4.5",
    }),
    row({
      package: "mystery",
      license: "UNKNOWN",
      verdict: "PROVISIONALLY_ALLOWED",
      project: "alpha",
    }),
    row({
      package: "mystery",
      license: "UNKNOWN",
      verdict: "DENIED",
      denial_category: "DENIAL_LICENSE_UNKNOWN",
      project: "beta",
    }),
    row({
      package: "mit-lib",
      license: "MIT",
      verdict: "PROVISIONALLY_ALLOWED",
      project: "alpha",
      agent_model: "gpt",
      agent_version: null,
    }),
    row({
      package: "requests",
      registry_status: "preferred",
      verdict: "DENIED",
      denial_category: "DENIAL_CVE",
      cve_ids: ["CVE-2023-32681"],
      max_cvss: 9.1,
      project: "alpha",
    }),
    row({
      package: "requests",
      registry_status: "preferred",
      verdict: "DENIED",
      denial_category: "DENIAL_CVE",
      cve_ids: ["CVE-2023-32681", "CVE-2024-35195"],
      max_cvss: 7.5,
      project: "beta",
    }),
    row({
      package: "lxml",
      verdict: "DENIED",
      denial_category: "DENIAL_CVE",
      cve_ids: ["CVE-2024-35195"],
      max_cvss: 5.6,
      project: "alpha",
      license: "BSD-3-Clause",
    }),
    row({
      package: "oldlib",
      verdict: "DENIED",
      denial_category: "DENIAL_CVE",
      cve_ids: ["GHSA-aaaa"],
      max_cvss: null,
      project: "alpha",
      license: "MIT",
    }),
    row({
      package: "flask",
      registry_status: "approved",
      verdict: "ALLOWED",
      project: "alpha",
      agent_model: "claude",
      agent_version: "4.5",
    }),
    row({
      package: "jinja2",
      verdict: "CVE_ALERT",
      denial_category: "DENIAL_CVE_ALERT",
      project: "policyd",
      requester: "cve-scanner",
      cve_ids: ["CVE-2024-22195"],
      max_cvss: 8.8,
    }),
  ];
  await store.audit.insertMany(rows);
  await store.close();
}

Deno.test("reports compute the seed's fields from real audit rows", async (t) => {
  const server = await startTestServer();
  await seed(server.dbPath);
  const get = async (path: string) => {
    const res = await fetch(`${server.url}/api/v1${path}`);
    equal(res.status, 200);
    return await res.json();
  };
  try {
    await t.step("legal report counts license-driven denials in the window", async () => {
      const legal = await get("/reports/legal");
      equal(legal.total_denials, 3);
      equal(legal.recent_denials.length, 3);
      ok(
        legal.recent_denials.every((r: { denial_category: string }) =>
          r.denial_category.startsWith("DENIAL_LICENSE")
        ),
      );
      ok(Array.isArray(legal.recent_denials[0].cve_ids));
      const gpl = legal.license_breakdown.find((b: { license: string }) =>
        b.license === "GPL-3.0-only"
      );
      deepStrictEqual(gpl.verdicts, { ALLOWED: 0, DENIED: 2, PROVISIONALLY_ALLOWED: 0 });
      deepStrictEqual(legal.unknown_license, [{
        license: "UNKNOWN",
        verdicts: { ALLOWED: 0, DENIED: 1, PROVISIONALLY_ALLOWED: 1 },
      }]);
      deepStrictEqual(legal.top_projects, [{ project: "beta", denials: 2 }, {
        project: "alpha",
        denials: 1,
      }]);
      ok(
        !legal.license_breakdown.some((b: { license: string | null }) => b.license === null),
        "null licenses are left out",
      );
    });
    await t.step("legal report filters by project and window", async () => {
      const alpha = await get("/reports/legal?project=alpha");
      equal(alpha.total_denials, 1);
      const wide = await get("/reports/legal?days=60");
      equal(wide.total_denials, 4);
    });
    await t.step("security report counts DENIAL_CVE only and lists alerts apart", async () => {
      const sec = await get("/reports/security");
      equal(sec.total_denials, 4);
      deepStrictEqual(sec.severity_distribution, {
        critical: 1,
        high: 1,
        medium: 1,
        low: 0,
        unknown: 1,
      });
      deepStrictEqual(sec.top_packages[0], {
        package: "requests",
        denials: 2,
        max_cvss: 9.1,
        cve_ids: ["CVE-2023-32681", "CVE-2024-35195"],
      });
      const cve = sec.top_cves.find((c: { cve: string }) => c.cve === "CVE-2024-35195");
      deepStrictEqual(cve, { cve: "CVE-2024-35195", denials: 2, packages: ["lxml", "requests"] });
      deepStrictEqual(sec.hot_registry_packages, [
        { package: "requests", registry_status: "preferred", cve_denials: 2, provisional: 0 },
      ]);
      equal(sec.recent_alerts.length, 1);
      equal(sec.recent_alerts[0].verdict, "CVE_ALERT");
      deepStrictEqual(sec.recent_alerts[0].cve_ids, ["CVE-2024-22195"]);
      ok(
        !sec.top_packages.some((p: { package: string }) => p.package === "jinja2"),
        "alerts never count as denials",
      );
    });
    await t.step("agents report groups by model and version with one unknown bucket", async () => {
      const { agents } = await get("/reports/agents");
      const claude = agents.find((a: { agent_model: string }) => a.agent_model === "claude");
      deepStrictEqual(claude, {
        agent_model: "claude",
        agent_version: "4.5",
        evaluations: 3,
        verdicts: { ALLOWED: 1, DENIED: 2, PROVISIONALLY_ALLOWED: 0 },
        denials: 2,
        sources: claude.sources,
      });
      equal(Object.values(claude.sources as Record<string, number>).reduce((a, b) => a + b), 3);
      const unknown = agents.find((a: { agent_model: string }) =>
        a.agent_model === "(unknown agent)"
      );
      equal(unknown.agent_version, null);
      equal(unknown.evaluations, 6);
      const gpt = agents.find((a: { agent_model: string }) => a.agent_model === "gpt");
      equal(gpt.agent_version, null);
      equal(agents.reduce((n: number, a: { evaluations: number }) => n + a.evaluations, 0), 10);
    });
    await t.step("limit bounds every list", async () => {
      const sec = await get("/reports/security?limit=1");
      equal(sec.recent_denials.length, 1);
      equal(sec.top_packages.length, 1);
      equal(sec.top_cves.length, 1);
    });
  } finally {
    await server.close();
  }
});
