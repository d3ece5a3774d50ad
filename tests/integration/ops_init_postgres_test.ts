/**
 * `policyd init --postgres`: the multi-instance stack (two replicas behind
 * Caddy, PostgreSQL, Redis) and its Caddyfile.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { loadSettings } from "../../src/settings.ts";
import { INIT_MARKER } from "../../cli/policyd/commands/init.ts";
import { assertIncludes, runPolicyd } from "../helpers/policyd_cli.ts";

Deno.test("init --postgres writes two replicas behind Caddy with PostgreSQL and Redis", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-init-pg-" });
  try {
    const result = await runPolicyd(["init", "--target", dir, "--postgres"]);
    assert.equal(result.code, 0, result.stderr);
    assertIncludes(result.stdout, "POSTGRES_PASSWORD");
    const compose = parse(await Deno.readTextFile(join(dir, "compose.yaml")), { merge: true });
    assert.deepEqual(Object.keys(compose.services).sort(), [
      "policyd-1",
      "policyd-2",
      "postgres",
      "proxy",
      "redis",
    ]);
    const replicas = ["policyd-1", "policyd-2"].map((name) => compose.services[name]);
    for (const [i, replica] of replicas.entries()) {
      assert.equal(replica.environment.INSTANCE_ID, `policyd-${i + 1}`);
      assert.match(
        replica.environment.DATABASE_URL,
        /^postgres:\/\/policyd:.*@postgres:5432\/policyd$/,
      );
      assert.deepEqual(replica.volumes, ["./registry:/registry"], "one shared registry");
      assert.equal(replica.ports, undefined, "replicas are reached through the proxy only");
      assert.equal(replica.depends_on.postgres.condition, "service_healthy");
      assert.equal(replica.healthcheck, undefined, "the image's HEALTHCHECK (selftest) applies");
      // The environment the stack fixes is valid policyd configuration.
      const env = Object.fromEntries(
        Object.entries(replica.environment as Record<string, string>).map(([k, v]) => [
          k,
          v.replace(/\$\{\w+:-([^}]*)\}/g, "$1"),
        ]),
      );
      assert.equal(
        loadSettings(env).DATABASE_URL,
        "postgres://policyd:policyd@postgres:5432/policyd",
      );
    }
    assert.deepEqual(compose.services.proxy.volumes, ["./Caddyfile:/etc/caddy/Caddyfile:ro"]);
    assert.deepEqual(compose.services.proxy.ports, [
      "127.0.0.1:${POLICY_PUBLISHED_PORT:-8765}:8765",
    ]);
    assert.match(compose.services.postgres.image, /^postgres:/);
    assert.ok("policyd-postgres" in compose.volumes);
    const caddy = await Deno.readTextFile(join(dir, "Caddyfile"));
    assert.match(caddy, /reverse_proxy policyd-1:8765 policyd-2:8765 \{/);
    assert.match(caddy, /health_uri \/api\/v1\/health/);
    const marker = JSON.parse(await Deno.readTextFile(join(dir, INIT_MARKER)));
    assert.ok(marker.files.includes(join(dir, "Caddyfile")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
