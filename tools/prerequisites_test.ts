import assert from "node:assert/strict";
import {
  acceptsConnections,
  type MachineFacts,
  planPreparation,
  redisAnswers,
} from "./prerequisites.ts";

const everything: MachineFacts = {
  redisAnswers: true,
  redisServerInstalled: true,
  precommitInstalled: true,
  chromiumPath: "/usr/bin/chromium",
  chromiumPresent: true,
  canInstallPackages: false,
  postgresServer: "postgres://postgres@127.0.0.1:5432",
  postgresAnswers: true,
};

Deno.test("the pre-commit framework is installed from Debian as root, else reported missing", () => {
  assert.deepEqual(
    planPreparation({ ...everything, precommitInstalled: false, canInstallPackages: true }),
    { steps: [{ kind: "install", debianPackage: "pre-commit" }], missing: [] },
  );
  const plan = planPreparation({ ...everything, precommitInstalled: false });
  assert.deepEqual(plan.steps, []);
  assert.match(plan.missing[0], /^missing: pre-commit .*apt-get install -y pre-commit/);
});

Deno.test("redis-server is needed even when a Redis answers (tests start their own)", () => {
  const plan = planPreparation({ ...everything, redisServerInstalled: false });
  assert.deepEqual(plan.steps, []);
  assert.match(plan.missing[0], /^missing: redis-server/);
  assert.deepEqual(
    planPreparation({ ...everything, redisServerInstalled: false, canInstallPackages: true }).steps,
    [{ kind: "install", debianPackage: "redis-server" }],
  );
});

Deno.test("a machine with Redis answering and Chromium present needs nothing", () => {
  assert.deepEqual(planPreparation(everything), { steps: [], missing: [] });
});

Deno.test("no Redis answering: a throwaway redis-server is started, installed first as root", () => {
  assert.deepEqual(planPreparation({ ...everything, redisAnswers: false }).steps, [
    { kind: "start-redis" },
  ]);
  const root = { ...everything, redisAnswers: false, redisServerInstalled: false };
  assert.deepEqual(planPreparation({ ...root, canInstallPackages: true }).steps, [
    { kind: "install", debianPackage: "redis-server" },
    { kind: "start-redis" },
  ]);
});

Deno.test("Chromium missing at Debian's path is installed as root", () => {
  const plan = planPreparation({ ...everything, chromiumPresent: false, canInstallPackages: true });
  assert.deepEqual(plan, { steps: [{ kind: "install", debianPackage: "chromium" }], missing: [] });
});

Deno.test("what cannot be had is one line each, saying how to get it", () => {
  const plan = planPreparation({
    ...everything,
    redisAnswers: false,
    redisServerInstalled: false,
    chromiumPresent: false,
  });
  assert.equal(plan.missing.length, 2);
  assert.match(plan.missing[0], /^missing: redis-server .*apt-get install -y redis-server/);
  assert.match(
    plan.missing[1],
    /^missing: Chromium at \/usr\/bin\/chromium .*apt-get install -y chromium/,
  );
  for (const line of plan.missing) assert.doesNotMatch(line, /\n/);
});

Deno.test("Chromium expected elsewhere (CHROMIUM_PATH) is never installed over, only reported", () => {
  const plan = planPreparation({
    ...everything,
    chromiumPath: "/opt/nowhere/chromium",
    chromiumPresent: false,
    canInstallPackages: true,
  });
  assert.deepEqual(plan.steps, []);
  assert.match(plan.missing[0], /^missing: Chromium at \/opt\/nowhere\/chromium/);
});

/** Runs tools/prerequisites.ts with `command` after `--`. */
async function runScript(command: string[], env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./prerequisites.ts", import.meta.url).href, "--", ...command],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("the script stops before running the command when a prerequisite is missing", async () => {
  const marker = await Deno.makeTempFile();
  await Deno.remove(marker);
  const result = await runScript(["touch", marker], {
    CHROMIUM_PATH: "/nonexistent/policyd-test/chromium",
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^prerequisites: missing: Chromium at \/nonexistent\/policyd-test\/chromium/m,
  );
  assert.match(result.stderr, /no test was run/);
  const ran = await Deno.stat(marker).then(() => true, () => false);
  assert.equal(ran, false, "the command never ran");
});

Deno.test("with no Redis answering, a throwaway redis-server serves the command and is stopped after", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadUrl = `redis://127.0.0.1:${(probe.addr as Deno.NetAddr).port}`;
  probe.close();
  const ping = `
    const url = new URL(Deno.env.get("POLICYD_TEST_REDIS_URL"));
    const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    await conn.write(new TextEncoder().encode("PING\\r\\n"));
    const buf = new Uint8Array(16);
    const n = await conn.read(buf);
    conn.close();
    console.log(url.href, new TextDecoder().decode(buf.subarray(0, n)).trim());`;
  const result = await runScript(["deno", "eval", ping], { POLICYD_TEST_REDIS_URL: deadUrl });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /started a throwaway redis-server on 127\.0\.0\.1:\d+/);
  const [url, reply] = result.stdout.trim().split(" ");
  assert.notEqual(url, deadUrl);
  assert.equal(reply, "+PONG");
  const { port } = new URL(url);
  assert.equal(await redisAnswers("127.0.0.1", Number(port)), false, "the server was stopped");
});

Deno.test("PostgreSQL not answering is reported in one line, never installed", async () => {
  const plan = planPreparation({ ...everything, postgresAnswers: false, canInstallPackages: true });
  assert.deepEqual(plan.steps, []);
  assert.equal(plan.missing.length, 1);
  assert.match(plan.missing[0], /^missing: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:5432 /);
  assert.match(plan.missing[0], /POLICYD_TEST_POSTGRES/);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  assert.equal(await acceptsConnections("127.0.0.1", port), true);
  listener.close();
  assert.equal(await acceptsConnections("127.0.0.1", port), false);
});

Deno.test("Debian's pip and venv are installed as root, reported otherwise", () => {
  const lacking = { ...everything, debianToolsMissing: ["python3-pip", "python3-venv"] as const };
  assert.deepEqual(
    planPreparation({
      ...lacking,
      canInstallPackages: true,
      debianToolsMissing: [...lacking.debianToolsMissing],
    }).steps,
    [
      { kind: "install", debianPackage: "python3-pip" },
      { kind: "install", debianPackage: "python3-venv" },
    ],
  );
  const plan = planPreparation({ ...lacking, debianToolsMissing: ["python3-venv"] });
  assert.deepEqual(plan.steps, []);
  assert.equal(plan.missing.length, 1);
  assert.match(plan.missing[0], /python3-venv.*sudo apt-get install -y python3-venv/);
});
