/**
 * `policyd selftest` against a live server and a dead port, and the
 * `admin keys` placeholders.
 *
 * @module
 */
import assert from "node:assert/strict";
import { VERSION } from "../../src/version.ts";
import { startTestServer } from "../helpers/server.ts";
import { assertIncludes, runPolicyd } from "../helpers/policyd_cli.ts";
import { describeScanner } from "../../cli/policyd/commands/selftest.ts";

Deno.test("selftest reports a live server as alive with what /health says", async () => {
  const server = await startTestServer();
  try {
    for (const url of [server.url, `${server.url}/`, `${server.url}/api/v1`]) {
      const result = await runPolicyd(["selftest", "--url", url]);
      assert.equal(result.code, 0, result.stderr);
      assertIncludes(result.stdout, "is alive");
      assertIncludes(result.stdout, `version ${VERSION}`);
      assertIncludes(result.stdout, "registry 2026.11.21");
      assertIncludes(result.stdout, "db ok");
      assertIncludes(result.stdout, "cache ");
      assertIncludes(result.stdout, "scanner off"); // CVE_SCAN_SCHEDULE=off in test servers
      assertIncludes(result.stdout, "upstreams osv unknown, pypi unknown");
      assert.doesNotMatch(result.stdout, /\[object Object\]/);
    }
  } finally {
    await server.close();
  }
});

Deno.test("describeScanner() says what the scanner object holds", () => {
  assert.equal(describeScanner({ enabled: false, schedule: "off", running: false }), "off");
  assert.equal(
    describeScanner({
      enabled: true,
      schedule: "0 */6 * * *",
      running: false,
      last_finished_at: "2026-11-26T06:00:00.000Z",
      last_error: null,
    }),
    "on (0 */6 * * *, last pass 2026-11-26T06:00:00.000Z)",
  );
  assert.equal(
    describeScanner({ enabled: true, schedule: "@hourly", running: true, last_finished_at: null }),
    "on (@hourly, running, no pass yet)",
  );
});

Deno.test("selftest exits 1 in one line when nothing listens", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const result = await runPolicyd([
    "selftest",
    "--url",
    `http://127.0.0.1:${port}`,
    "--timeout",
    "2000",
  ]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.equal(result.stderr.trim().split("\n").length, 1);
  assertIncludes(result.stderr, "is not reachable");
});

Deno.test("selftest exits 1 when the answer is not a policyd health document", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("hello"),
  );
  try {
    const result = await runPolicyd(["selftest", "--url", `http://127.0.0.1:${server.addr.port}`]);
    assert.equal(result.code, 1);
    assertIncludes(result.stderr, "without a policyd health document");
  } finally {
    await server.shutdown();
  }
});

Deno.test("selftest times out on a server that never answers", async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    await gate;
    return new Response("late");
  });
  try {
    const result = await runPolicyd([
      "selftest",
      "--url",
      `http://127.0.0.1:${server.addr.port}`,
      "--timeout",
      "300",
    ]);
    assert.equal(result.code, 1);
    assertIncludes(result.stderr, "no answer within 300 ms");
  } finally {
    release();
    await server.shutdown();
  }
});

Deno.test("selftest rejects a malformed --url as a usage error", async () => {
  const result = await runPolicyd(["selftest", "--url", "not a url"]);
  assert.equal(result.code, 64);
  assert.equal(result.stderr.trim().split("\n").length, 1);
});

Deno.test("admin keys placeholders print what they will do and exit 2", async (t) => {
  const cases: Array<[string[], string]> = [
    [["admin", "keys", "create", "ci-bot"], `named "ci-bot"`],
    [["admin", "keys", "list"], "list API keys"],
    [["admin", "keys", "revoke", "k_42"], `id "k_42"`],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), async () => {
      const result = await runPolicyd(args);
      assert.equal(result.code, 2);
      assertIncludes(result.stdout, "not implemented yet");
      assertIncludes(result.stdout, expected);
    });
  }
  await t.step("a missing argument is a usage error", async () => {
    assert.equal((await runPolicyd(["admin", "keys", "create"])).code, 64);
  });
});
