/**
 * `policyd init`: the container stack it writes, its refusal to run twice,
 * and `--force`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { DEFAULT_REGISTRY_PATH, loadSettings, settingsSchema } from "../../src/settings.ts";
import { INIT_MARKER } from "../../cli/policyd/commands/init.ts";
import { assertIncludes, runPolicyd } from "../helpers/policyd_cli.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function initialised(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-init-" });
  const result = await runPolicyd(["init", "--target", dir]);
  assert.deepEqual(result.code, 0, result.stderr);
  return dir;
}

Deno.test("init writes the stack, refuses a second run in one line, and --force rewrites it", async () => {
  const dir = await initialised();
  try {
    for (
      const file of [
        "Dockerfile",
        "compose.yaml",
        ".env.example",
        "registry/registry.yaml",
        INIT_MARKER,
      ]
    ) {
      assert.ok((await Deno.stat(join(dir, file))).isFile, file);
    }
    const compiled = JSON.parse(await Deno.readTextFile(join(dir, "registry/registry.json")));
    assert.ok(compiled.packages.some((p: { name: string }) => p.name === "pycrypto"));
    const marker = JSON.parse(await Deno.readTextFile(join(dir, INIT_MARKER)));
    assert.deepEqual(marker.files.length, 5);

    const again = await runPolicyd(["init", "--target", dir]);
    assert.deepEqual(again.code, 1);
    assert.deepEqual(again.stderr.trim().split("\n").length, 1);
    assertIncludes(again.stderr, "--force");

    await Deno.writeTextFile(join(dir, "Dockerfile"), "broken\n");
    const rules = (await Deno.readTextFile(join(dir, "registry/registry.yaml"))) + "# my rules\n";
    await Deno.writeTextFile(join(dir, "registry/registry.yaml"), rules);
    const forced = await runPolicyd(["init", "--target", dir, "--force"]);
    assert.deepEqual(forced.code, 0, forced.stderr);
    assert.match(await Deno.readTextFile(join(dir, "Dockerfile")), /^FROM denoland\/deno:/m);
    assert.deepEqual(
      await Deno.readTextFile(join(dir, "registry/registry.yaml")),
      rules,
      "an existing registry is kept",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("init fails in one line when the kept registry is invalid", async () => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-init-" });
  try {
    await Deno.mkdir(join(dir, "registry"));
    await Deno.writeTextFile(
      join(dir, "registry/registry.yaml"),
      "packages: [{name: x, status: nope}]\n",
    );
    const result = await runPolicyd(["init", "--target", dir]);
    assert.deepEqual(result.code, 1);
    assert.deepEqual(result.stderr.trim().split("\n").at(-1)!.startsWith("policyd: "), true);
    assertIncludes(result.stderr, "is invalid");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compose.yaml parses and runs policyd and redis with volumes for the database and registry", async () => {
  const dir = await initialised();
  try {
    const compose = parse(await Deno.readTextFile(join(dir, "compose.yaml")));
    assert.deepEqual(Object.keys(compose.services).sort(), ["policyd", "redis"]);
    const policyd = compose.services.policyd;
    assert.deepEqual(policyd.build.dockerfile, join(dir, "Dockerfile"));
    assertIncludes(
      policyd.build.context,
      ROOT.replace(/\/$/, ""),
      "running from source, the context is this checkout",
    );
    assert.deepEqual(policyd.environment.REDIS_URL, "${REDIS_URL:-redis://redis:6379}");
    assert.deepEqual(policyd.environment.POLICY_DB_PATH, "/data/policyd.db");
    assert.ok(policyd.volumes.includes("policyd-data:/data"));
    assert.ok(policyd.volumes.includes("./registry:/registry"));
    assert.deepEqual(policyd.depends_on.redis.condition, "service_healthy");
    assert.ok("policyd-data" in compose.volumes);
    assert.match(compose.services.redis.image, /^redis:/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(".env.example documents every setting with its real default", async () => {
  const dir = await initialised();
  try {
    const text = await Deno.readTextFile(join(dir, ".env.example"));
    const documented: Record<string, string> = {};
    for (const match of text.matchAll(/^# ([A-Z_]+)=(.*)$/gm)) {
      documented[match[1]] = match[2].startsWith('"') ? JSON.parse(match[2]) : match[2];
    }
    for (const name of Object.keys(settingsSchema.shape)) {
      assert.ok(name in documented, `${name} is documented`);
    }
    const { REGISTRY_PATH, ...env } = documented;
    assert.deepEqual(REGISTRY_PATH, DEFAULT_REGISTRY_PATH);
    assert.deepEqual(loadSettings(env), loadSettings({}), "documented defaults are the defaults");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const DOCKERFILE_INSTRUCTIONS = new Set([
  "FROM",
  "RUN",
  "CMD",
  "LABEL",
  "EXPOSE",
  "ENV",
  "ADD",
  "COPY",
  "ENTRYPOINT",
  "VOLUME",
  "USER",
  "WORKDIR",
  "ARG",
  "ONBUILD",
  "STOPSIGNAL",
  "HEALTHCHECK",
  "SHELL",
]);

Deno.test("the Dockerfile uses only real instructions, COPY paths of this repository, and a non-root user", async () => {
  const dir = await initialised();
  try {
    const logical = (await Deno.readTextFile(join(dir, "Dockerfile")))
      .replace(/\\\n/g, " ")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    const instructions = logical.map((line) => line.split(/\s+/)[0]);
    for (const instruction of instructions) {
      assert.ok(DOCKERFILE_INSTRUCTIONS.has(instruction), instruction);
    }
    assert.deepEqual(logical[0], `FROM denoland/deno:${Deno.version.deno}`);
    for (const line of logical.filter((l) => l.startsWith("COPY "))) {
      const args = line.split(/\s+/).slice(1).filter((a) => !a.startsWith("--"));
      for (const source of args.slice(0, -1)) {
        await Deno.stat(join(ROOT, source)).catch(() => {
          throw new Error(`COPY source ${source} does not exist in the repository`);
        });
      }
    }
    const user = logical.filter((l) => l.startsWith("USER ")).at(-1);
    assert.ok(user && !/\b(root|0)\b/.test(user), "runs as a non-root user");
    const healthcheck = logical.find((l) => l.startsWith("HEALTHCHECK "));
    assert.ok(healthcheck && !healthcheck.includes("curl"), "the health check needs no curl");
    assertIncludes(healthcheck, "selftest");
    const entrypoint = JSON.parse(
      logical.find((l) => l.startsWith("ENTRYPOINT "))!.slice("ENTRYPOINT ".length),
    );
    await Deno.stat(join(ROOT, entrypoint.at(-1)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
