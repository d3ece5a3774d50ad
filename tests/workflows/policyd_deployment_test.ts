/**
 * The health flow of a deployment with several instances on one PostgreSQL
 * database: which instance answered, which ran the last scanner pass.
 */
import { equal } from "node:assert/strict";
import { AgentTestClient, workflow } from "../../src/workflows/mod.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { createScratchDatabase } from "../helpers/postgres.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { postgresCoordination } from "../../src/cluster/postgres_coordination.ts";
import { silentLogger } from "../../src/log/logger.ts";

Deno.test(
  "see which instance answered and which ran the last scan",
  workflow(
    "Check one instance of several",
    "Behind a load balancer, health names the instance that answered and the instance that ran the last CVE scan.",
    async () => {
      const db = await createScratchDatabase("workflow");
      // Another instance (policyd-2) ran the 06:00 scan pass.
      const other = await openPostgresStore(db.url);
      const clock = [new Date("2026-11-21T06:00:00.000Z"), new Date("2026-11-21T06:00:04.000Z")];
      const coordination = postgresCoordination(
        other.sql,
        "policyd-2",
        silentLogger,
        () => clock.shift()!,
      );
      const tick = new Date("2026-11-21T06:00:00.000Z");
      await coordination.claimScanTick(tick);
      await coordination.finishScanTick(tick, { rows: 1, error: null });
      await other.close();
      const app = await workflowApp("cluster-health", {
        env: { DATABASE_URL: db.url, INSTANCE_ID: "policyd-1" },
      });
      try {
        const client = new AgentTestClient(app.built.app);
        const res = await client.get("/api/v1/health");
        equal(res.status, 200);
        const body = res.json<{ instance: string; scanner: { last_pass: { instance: string } } }>();
        equal(body.instance, "policyd-1");
        equal(body.scanner.last_pass.instance, "policyd-2");
      } finally {
        await app.close();
        await db.drop();
      }
    },
    {
      requires: [
        "instances sharing one PostgreSQL database through DATABASE_URL (`postgres://user@host:" +
        "port/database`), each named by INSTANCE_ID (docs/deployment.md); a local PostgreSQL " +
        "will do",
        "`scanner.last_pass` only after a scanner pass (CVE_SCAN_SCHEDULE)",
      ],
    },
  ),
);
