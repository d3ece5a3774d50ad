import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { auditCount, queryDb } from "../helpers/db.ts";

Deno.test("GET /evaluate denies a banned package with its replacement and writes one audit row", async () => {
  const server = await startTestServer();
  try {
    const res = await fetch(`${server.url}/api/v1/evaluate?package=pycrypto`, {
      headers: {
        "x-policy-project": "shop",
        "x-policy-agent-model": "claude",
        "x-policy-agent-version": "4",
        "x-policy-source": "check",
        "x-request-id": "trace-42",
      },
    });
    equal(res.status, 200);
    equal(res.headers.get("content-type"), "application/json");
    equal(res.headers.get("x-request-id"), "trace-42", "the caller's request id comes back");
    const body = await res.json();
    equal(body.verdict, "DENIED");
    equal(body.denial_category, "DENIAL_BANNED");
    equal(body.replacement, "cryptography");
    equal(body.registry_status, "banned");
    equal(body.registry_version, "2026.11.21");
    deepStrictEqual(Object.keys(body).sort(), [
      "audit_id",
      "cves",
      "data",
      "denial_category",
      "exceptions_applied",
      "latest_version",
      "license",
      "license_raw",
      "max_cvss",
      "package",
      "reason",
      "registry_status",
      "registry_version",
      "replacement",
      "threats",
      "verdict",
      "version",
    ]);
    const rows = queryDb(server.dbPath, "SELECT * FROM audit_log");
    equal(rows.length, 1);
    equal(rows[0].id, body.audit_id);
    equal(rows[0].project, "shop");
    equal(rows[0].requester, "local");
    equal(rows[0].agent_model, "claude");
    equal(rows[0].agent_version, "4");
    equal(rows[0].source, "check");
    equal(rows[0].verdict, "DENIED");
    equal(rows[0].registry_version, "2026.11.21");
    const skipped = { status: "skipped", fetched_at: null };
    deepStrictEqual(body.data, { vulnerabilities: skipped, license: skipped });
    deepStrictEqual(JSON.parse(String(rows[0].data)), body.data, "the audit row keeps the data");
  } finally {
    await server.close();
  }
});

Deno.test("GET /evaluate accepts a pinned PEP 508 spec and normalises the name", async () => {
  const server = await startTestServer();
  try {
    const res = await fetch(`${server.url}/api/v1/evaluate?package=PyYAML==5.3&project=p1`);
    const body = await res.json();
    equal(body.package, "pyyaml");
    equal(body.version, "5.3");
    equal(body.verdict, "DENIED");
    equal(body.denial_category, "DENIAL_VERSION_CONSTRAINT");
    const unknown =
      await (await fetch(`${server.url}/api/v1/evaluate?package=left_pad&version=1.0`)).json();
    equal(unknown.package, "left-pad");
    equal(unknown.verdict, "PROVISIONALLY_ALLOWED");
    equal(unknown.registry_status, null);
  } finally {
    await server.close();
  }
});

Deno.test("POST /evaluate/batch returns one result and one audit row per package, in order", async () => {
  const server = await startTestServer();
  try {
    const res = await fetch(`${server.url}/api/v1/evaluate/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-policy-source": "audit" },
      body: JSON.stringify({
        packages: [{ package: "requests" }, { package: "nose" }, {
          package: "pyyaml",
          version: "6.0.2",
        }],
      }),
    });
    equal(res.status, 200);
    const { results } = await res.json();
    deepStrictEqual(results.map((r: { verdict: string }) => r.verdict), [
      "ALLOWED",
      "DENIED",
      "ALLOWED",
    ]);
    equal(results[1].replacement, "pytest");
    equal(auditCount(server.dbPath), 3);
    const ids = queryDb(server.dbPath, "SELECT id, source FROM audit_log ORDER BY id");
    deepStrictEqual(ids.map((r) => r.id), results.map((r: { audit_id: number }) => r.audit_id));
    ok(ids.every((r) => r.source === "audit"));
  } finally {
    await server.close();
  }
});

Deno.test("200 concurrent evaluations over a real socket produce exactly 200 audit rows", async () => {
  const server = await startTestServer();
  try {
    const names = ["requests", "pycrypto", "flask", "left-pad", "nose", "pyyaml"];
    const responses = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          fetch(
            `${server.url}/api/v1/evaluate?package=${names[i % names.length]}&project=load-${
              i % 7
            }`,
          )
            .then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    ok(responses.every((r) => r.status === 200));
    equal(auditCount(server.dbPath), 200);
    const ids = new Set(responses.map((r) => r.body.audit_id));
    equal(ids.size, 200, "every evaluation has its own audit row");
  } finally {
    await server.close();
  }
});
