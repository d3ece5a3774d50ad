/**
 * The outbox with real stores: a scanner alert row and its `cve_alert` are
 * written together; `malicious_seen` names the projects and versions of the
 * audit log (OSV on a loopback fake replaying a real MAL- advisory); two
 * instances on one PostgreSQL database deliver each event once.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { openSqliteStore } from "../store/sqlite.ts";
import { openPostgresStore } from "../store/postgres.ts";
import { silentLogger as log } from "../log/logger.ts";
import { createMemoryCache } from "../cache/memory.ts";
import type { NewAuditRow, Store } from "../store/types.ts";
import { createAlerter } from "./alerter.ts";
import { startDelivery } from "./delivery.ts";
import { runScanPass } from "../scanner/scan_pass.ts";
import { createOsvScanSource } from "../lookups/osv_scan.ts";
import { noLicenseData } from "../lookups/none.ts";
import type { CompiledRegistry } from "../core/types.ts";
import { webhookDestination } from "./webhook.ts";
import { ALERT_EVENTS } from "./events.ts";
import { createScratchDatabase } from "../../tests/helpers/postgres.ts";
import { auditRow } from "../../tests/helpers/audit_rows.ts";
import { cveAlertRow, leftPadRequest } from "../../tests/helpers/alert_samples.ts";
import { startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";
import { createAlertReceiver, waitFor } from "../../tests/helpers/alert_receiver.ts";

const SECRET = "outbox-test-secret-0123456789";

const hook = (url: string) =>
  webhookDestination({
    url,
    secret: SECRET,
    dashboardUrl: "http://127.0.0.1:8765",
    timeoutMs: 5000,
    events: [...ALERT_EVENTS],
    minSeverity: "info",
  });

/** A registry without packages: the scanner watches the audited ones. */
const EMPTY_REGISTRY: CompiledRegistry = {
  version: "alerts-test-1",
  compiled_at: "2026-11-21T00:00:00Z",
  policies: {
    cve_threshold: 7.0,
    block_on_cve: false,
    unversioned_cve_scope: "latest",
    licenses: { allowed: ["MIT"], denied: [] },
    unknown_license_policy: "provisional",
    on_missing_data: "allow",
    min_release_age_days: 0,
  },
  packages: [],
  exceptions: [],
};

/** An alerter over a store with a webhook destination nothing delivers to. */
const alerterOn = (store: Pick<Store, "outbox" | "audit">) =>
  createAlerter({
    destinations: [hook("http://127.0.0.1:9/unused")],
    outbox: store.outbox,
    auditLog: store.audit,
    log,
  });

const row = (pkg: string, project: string, version: string | null): NewAuditRow =>
  auditRow({ package: pkg, project, version, verdict: "PROVISIONALLY_ALLOWED", source: "check" });

Deno.test("a scanner alert row and its cve_alert are written together", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const alerter = alerterOn(store);
    const stored = await alerter.audit(store.audit).insert(cveAlertRow(9.1));
    const [entry] = await store.outbox.list({}, 10);
    equal(entry.key, `cve_alert:audit:${stored.id}`);
    equal(entry.kind, "cve_alert");
    equal(entry.severity, "critical");
    deepStrictEqual(entry.data.cve_ids, ["CVE-2024-22195"]);
    await alerter.audit(store.audit).insert(row("flask", "web", "3.0.0"));
    equal((await store.outbox.list({}, 10)).length, 1, "an evaluation row is no alert");
  } finally {
    await store.close();
  }
});

Deno.test("a scan pass that finds a malicious advisory for an audited package alerts malicious_seen naming projects and versions", async () => {
  const upstream = await startFakeUpstream({ fixtures: false });
  const store = openSqliteStore(":memory:");
  try {
    const advisory = JSON.parse(
      await Deno.readTextFile(
        new URL("../../tests/fixtures/alerts/MAL-2022-7439.json", import.meta.url),
      ),
    );
    upstream.addOsvRecord(advisory);
    await store.audit.insert(row("requestts", "web", "0.1.0"));
    await store.audit.insert(row("requestts", "api", "0.1.1"));
    await store.audit.insert(row("requestts", "web", "0.1.2"));
    await store.audit.insert(row("flask", "web", "3.0.0"));
    const alerter = alerterOn(store);
    const pass = () =>
      runScanPass({
        vulnerabilities: createOsvScanSource({
          lookups: { osvApiUrl: upstream.url, timeoutMs: 2000 },
          cache: { store: createMemoryCache(), ttlSeconds: 21600 },
          log,
        }),
        scanner: { projectName: "policyd-test" },
        registry: EMPTY_REGISTRY,
        licenses: noLicenseData,
        audit: alerter.audit(store.audit),
        log,
      });
    equal(await pass(), 1);
    const [entry] = await store.outbox.list({ kind: "malicious_seen" }, 10);
    equal(entry.package, "requestts");
    equal(entry.key, "malicious_seen:requestts:MAL-2022-7439");
    equal(entry.severity, "critical");
    deepStrictEqual(
      (entry.data.projects as Array<{ project: string; versions: string[] }>).map((p) => [
        p.project,
        p.versions,
      ]),
      [["api", ["0.1.1"]], ["web", ["0.1.0", "0.1.2"]]],
    );
    ok(entry.title.includes("api, web"));
    deepStrictEqual(
      (entry.data.advisories as Array<{ id: string }>).map((a) => a.id),
      ["MAL-2022-7439"],
    );
    const [scannerRow] = await store.audit.list({ categories: ["DENIAL_MALICIOUS"] }, 10);
    equal(scannerRow.package, "requestts", "the cause is stored with its event");
    equal(await pass(), 0, "the same advisories alert once");
    equal((await store.outbox.list({}, 10)).length, 1);
  } finally {
    await store.close();
    await upstream.close();
  }
});

Deno.test("two instances on one PostgreSQL database deliver each event once", async () => {
  const db = await createScratchDatabase("alerts");
  const receiver = createAlertReceiver(SECRET);
  const stores = await Promise.all([openPostgresStore(db.url), openPostgresStore(db.url)]);
  const loops: Array<ReturnType<typeof startDelivery>> = [];
  try {
    const destination = hook(receiver.url);
    const alerter = createAlerter({
      destinations: [destination],
      outbox: stores[0].outbox,
      auditLog: stores[0].audit,
      log,
    });
    const events = Array.from({ length: 40 }, (_, i) => ({
      key: `test:${i}`,
      kind: "rule_changed" as const,
      severity: "info" as const,
      package: `pkg-${i}`,
      title: `event ${i}`,
      data: { i },
      occurred_at: new Date().toISOString(),
    }));
    equal(await alerter.emit(events), 40);
    equal(await alerter.emit(events.slice(0, 5)), 0, "a key is written once");
    for (const [i, store] of stores.entries()) {
      loops.push(startDelivery({
        outbox: store.outbox,
        destinations: new Map([["webhook", destination]]),
        instance: `instance-${i}`,
        log,
        pollMs: 10,
        maxAttempts: 5,
        retryBaseMs: 10,
        timeoutMs: 5000,
      }));
    }
    await waitFor(() => receiver.accepted().length >= 40, "40 deliveries");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const accepted = receiver.accepted();
    equal(accepted.length, 40);
    equal(new Set(accepted).size, 40, "no event delivered twice");
    ok(receiver.seen.every((s) => s.signatureOk));
    const backlog = await stores[1].outbox.backlog();
    deepStrictEqual(backlog, { pending: 0, dead: 0, oldest_pending_at: null });
  } finally {
    for (const loop of loops) await loop.stop();
    for (const store of stores) await store.close();
    await receiver.stop();
    await db.drop();
  }
});

Deno.test("postgres: a cause and its outbox rows commit together; later requests of a package collapse", async () => {
  const db = await createScratchDatabase("alerts_tx");
  const store = await openPostgresStore(db.url);
  try {
    const alerter = alerterOn(store);
    const stored = await alerter.audit(store.audit).insert(cveAlertRow(7.5));
    const wrapped = alerter.store(store);
    await Promise.all([
      wrapped.approvals.create(leftPadRequest()),
      wrapped.approvals.create(leftPadRequest({ project: "api" })),
    ]);
    const rows = await store.outbox.list({}, 10);
    deepStrictEqual(rows.map((r) => [r.kind, r.severity]).sort(), [
      ["cve_alert", "high"],
      ["request_filed", "info"],
    ]);
    equal(rows.find((r) => r.kind === "cve_alert")!.key, `cve_alert:audit:${stored.id}`);
    equal((await store.approvals.list({ package: "left-pad" })).length, 2);
    equal(await store.outbox.mute(rows[0].id), "done");
    equal(await store.outbox.retry(rows[0].id), "done");
    equal(await store.outbox.retry(999_999), "not-found");
  } finally {
    await store.close();
    await db.drop();
  }
});
