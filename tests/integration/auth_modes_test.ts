/**
 * Auth mode selection end to end: single-user mode ignores AUTH_BACKEND,
 * the apikey placeholder fails loudly (501), a `module:` backend is loaded
 * from a file, and bad AUTH_* settings stop the start-up with a clear error.
 */
import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../src/settings.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { buildServer, StartupError } from "../../src/server.ts";
import { queryDb } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

Deno.test("AUTH_ENABLED=false ignores AUTH_BACKEND: everyone is `local`, reload needs no group", async (t) => {
  for (const backend of ["apikey", "header", "webhook"]) {
    await t.step(backend, async () => {
      const server = await startTestServer({
        env: { AUTH_ENABLED: "false", AUTH_BACKEND: backend, TRUSTED_PROXIES: "10.0.0.0/8" },
      });
      try {
        const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`);
        equal(res.status, 200);
        const { audit_id } = await res.json();
        equal(
          queryDb(server.dbPath, "SELECT requester FROM audit_log WHERE id = ?", audit_id)[0]
            .requester,
          "local",
        );
        const reload = await fetch(`${server.url}/api/v1/registry/reload`, { method: "POST" });
        equal(reload.status, 200);
        await reload.body?.cancel();
        const health = await (await fetch(`${server.url}/api/v1/health`)).json();
        deepStrictEqual(health.auth, { enabled: false, backend: "anonymous" });
      } finally {
        await server.close();
      }
    });
  }
});

Deno.test("AUTH_BACKEND=apikey in org mode answers 501 problem+json and logs an error; /health stays open", async () => {
  const logLines: string[] = [];
  const server = await startTestServer({
    env: { AUTH_ENABLED: "true", AUTH_BACKEND: "apikey" },
    logLines,
  });
  try {
    const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
      headers: { authorization: "Bearer some-api-key-123" },
    });
    equal(res.status, 501);
    equal(res.headers.get("content-type"), "application/problem+json");
    const problem = await res.json();
    equal(problem.status, 501);
    equal(problem.title, "Not Implemented");
    match(problem.detail, /apikey/);
    const errors = logLines.map((l) => JSON.parse(l)).filter((l) => l.level === "error");
    ok(errors.some((l) => l.backend === "apikey"), "an error line names the backend");
    equal(logLines.join("\n").includes("some-api-key-123"), false);
    const health = await fetch(`${server.url}/api/v1/health`);
    equal(health.status, 200);
    deepStrictEqual((await health.json()).auth, { enabled: true, backend: "apikey" });
  } finally {
    await server.close();
  }
});

Deno.test("AUTH_BACKEND=module:<path>:<Export> loads a user class whose identity is the requester", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-auth-mod-" });
  const file = join(dir, "team_auth.js");
  await Deno.writeTextFile(
    file,
    `export class TeamAuth {
      constructor({ settings }) { this.group = settings.OPERATOR_GROUP; }
      async authenticate(request) {
        const user = request.headers.get("x-team-user");
        if (!user) throw Object.assign(new Error("no user"), { name: "AuthError" });
        return { id: user, groups: [this.group], raw: {} };
      }
    }`,
  );
  const server = await startTestServer({
    env: { AUTH_ENABLED: "true", AUTH_BACKEND: `module:${file}:TeamAuth` },
  });
  try {
    const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`, {
      headers: { "x-team-user": "carol" },
    });
    equal(res.status, 200);
    const { audit_id } = await res.json();
    equal(
      queryDb(server.dbPath, "SELECT requester FROM audit_log WHERE id = ?", audit_id)[0].requester,
      "carol",
    );
    const anonymous = await fetch(`${server.url}/api/v1/evaluate?package=requests`);
    equal(anonymous.status, 401, "an error named AuthError from the module is a 401");
    ok(anonymous.headers.get("www-authenticate"));
    await anonymous.body?.cancel();
    const reload = await fetch(`${server.url}/api/v1/registry/reload`, {
      method: "POST",
      headers: { "x-team-user": "carol" },
    });
    equal(reload.status, 200);
    await reload.body?.cancel();
    deepStrictEqual((await (await fetch(`${server.url}/api/v1/health`)).json()).auth, {
      enabled: true,
      backend: "module:TeamAuth",
    });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bad AUTH_* settings stop the start-up with an error naming the variable", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-auth-bad-" });
  try {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { TRUSTED_PROXIES: "127.0.0.1/32, 10.0.0.0/40" },
        /Invalid setting TRUSTED_PROXIES: .*"10\.0\.0\.0\/40"/,
      ],
      [{ TRUSTED_PROXIES: "proxy.internal" }, /Invalid setting TRUSTED_PROXIES/],
      [{ AUTH_BACKEND: "webhook" }, /Invalid setting AUTH_VERIFY_URL/],
      [{ AUTH_BACKEND: `module:${join(dir, "missing.ts")}:Nope` }, /Invalid setting AUTH_BACKEND/],
    ];
    for (const [env, message] of cases) {
      await t.step(JSON.stringify(env), async () => {
        const settings = loadSettings({
          POLICY_DB_PATH: join(dir, "policyd.db"),
          REGISTRY_PATH: join(dir, "registry.yaml"),
          AUTH_ENABLED: "true",
          ...env,
        });
        await rejects(
          buildServer(settings, { log: silentLogger, background: false }),
          (e) => e instanceof StartupError && message.test(e.message),
        );
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
