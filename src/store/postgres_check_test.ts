import { equal, match } from "node:assert/strict";
import { postgresDatabaseCheck } from "./postgres_check.ts";
import { openPostgresStore } from "./postgres.ts";
import { POSTGRES_MIGRATIONS } from "./postgres_migrations.ts";
import { createScratchDatabase, queryPostgres } from "../../tests/helpers/postgres.ts";
import { runChecks } from "../../cli/policyd/commands/config_checks.ts";

Deno.test("the DATABASE_URL check: pending, migrated, newer than this build", async () => {
  const db = await createScratchDatabase("check");
  try {
    const fresh = await postgresDatabaseCheck(db.url);
    equal(fresh.status, "warn");
    const known = POSTGRES_MIGRATIONS.map((m) => m.version);
    match(fresh.detail, new RegExp(`migrations ${known.join(", ")} pending \\(applied: none\\)`));
    await (await openPostgresStore(db.url)).close();
    const migrated = await postgresDatabaseCheck(db.url);
    equal(migrated.status, "ok", migrated.detail);
    match(migrated.detail, new RegExp(`schema at migration ${Math.max(...known)}\\b`));
    await queryPostgres(
      db.url,
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', now())",
    );
    const newer = await postgresDatabaseCheck(db.url);
    equal(newer.status, "fail");
    match(newer.detail, /does not know \(99\)/);
  } finally {
    await db.drop();
  }
});

Deno.test("the DATABASE_URL check fails on an unreachable server and hides the password", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close(); // nothing listens on this port now
  const row = await postgresDatabaseCheck(`postgres://app:s3cret@127.0.0.1:${port}/policyd`, 2);
  equal(row.status, "fail");
  match(row.detail, /postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/policyd is unreachable/);
  equal(row.detail.includes("s3cret"), false);
});

Deno.test("check-config uses the PostgreSQL check when DATABASE_URL is set", async () => {
  const db = await createScratchDatabase("check_cli");
  try {
    const rows = await runChecks({ DATABASE_URL: db.url, REDIS_URL: "none" });
    const database = rows.find((r) => r.check === "database")!;
    equal(database.status, "warn");
    match(database.detail, /^PostgreSQL at postgres:\/\//);
  } finally {
    await db.drop();
  }
});
