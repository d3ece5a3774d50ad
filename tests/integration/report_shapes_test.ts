/**
 * One shape per answer (issue 30): the security report's lists are declared
 * in full in the contract, so OpenAPI describes every field a real answer
 * has, and the report's TypeScript type is inferred from the same schemas.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { startTestServer } from "../helpers/server.ts";
import { auditRow } from "../helpers/audit_rows.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { SecurityReportSchema } from "../../src/api/reports.ts";
import { drift, type JsonSchema } from "../helpers/schema_drift.ts";

Deno.test("the security report's lists: every field of a real answer is in the contract and in OpenAPI", async () => {
  const server = await startTestServer();
  try {
    const store = openSqliteStore(server.dbPath);
    const cve = (name: string, ids: string[], max: number) =>
      auditRow({
        package: name,
        verdict: "DENIED",
        denial_category: "DENIAL_CVE",
        cve_ids: ids,
        max_cvss: max,
        registry_status: "preferred",
      });
    await store.audit.insert(cve("requests", ["CVE-2026-0001"], 9.8));
    await store.audit.insert(cve("requests", ["CVE-2026-0001", "CVE-2026-0002"], 7.5));
    await store.audit.insert(cve("urllib3", ["CVE-2026-0002"], 5.0));
    await store.close();

    const res = await fetch(`${server.url}/api/v1/reports/security?days=7`);
    assert.equal(res.status, 200);
    const report = await res.json();
    assert.equal(report.top_packages[0].package, "requests");
    assert.deepEqual(report.top_packages[0].cve_ids.sort(), ["CVE-2026-0001", "CVE-2026-0002"]);
    assert.equal(report.top_packages[0].max_cvss, 9.8);
    assert.ok(report.hot_registry_packages.length > 0, "a preferred package with CVE denials");

    const schema = z.toJSONSchema(SecurityReportSchema, { io: "output" }) as JsonSchema;
    const lists = ["severity_distribution", "top_packages", "top_cves", "hot_registry_packages"];
    for (const key of lists) {
      assert.deepEqual(drift(report[key], schema.properties![key], key), [], key);
    }

    // OpenAPI, generated from the same contract, lists the fields the review found missing.
    const openapi = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const security = JSON.stringify(openapi.paths["/reports/security"].get.responses["200"]);
    for (const field of ["max_cvss", "cve_ids", "registry_status", "cve_denials", "provisional"]) {
      assert.ok(security.includes(`"${field}"`), `OpenAPI describes ${field}`);
    }
  } finally {
    await server.close();
  }
});
