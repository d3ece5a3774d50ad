/**
 * A policyd app for the workflow-documentation tests: real SQLite, the real
 * registry and proposers, the fake upstream (OSV/PyPI fixtures) over
 * loopback, a fixed clock and fixed paths, so two runs of the same tests
 * produce byte-identical documents.
 *
 * @module
 */
import { join } from "node:path";
import { loadSettings } from "../../src/settings.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { buildServer, type BuiltServer } from "../../src/server.ts";
import { type FakeUpstream, startFakeUpstream } from "./fake_upstream.ts";

/** The instant every timestamp of the documented responses shows. */
export const DOC_TIME = new Date("2026-11-21T09:00:00.000Z");

/**
 * cryptography's advisories are in the fixtures, its PyPI response is not:
 * the fake serves one naming 46.0.7, the release that fixed CVE-2026-39892.
 */
export const CRYPTOGRAPHY_PROJECT = {
  info: {
    name: "cryptography",
    version: "46.0.7",
    license: null,
    license_expression: "Apache-2.0 OR BSD-3-Clause",
    classifiers: [],
  },
};

/** A running documented app. */
export interface WorkflowApp {
  built: BuiltServer;
  dir: string;
  registryPath: string;
  upstream: FakeUpstream;
  close(): Promise<void>;
}

/**
 * Builds the app under `/tmp/policyd-workflows/<slug>` (a fixed path, because
 * proposer results name the registry file).
 */
export async function workflowApp(
  slug: string,
  options: { env?: Record<string, string>; registryYaml?: string; registryPath?: string } = {},
): Promise<WorkflowApp> {
  const dir = join("/tmp/policyd-workflows", slug);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const registryPath = options.registryPath ?? join(dir, "registry.yaml");
  if (!options.registryPath) {
    await Deno.writeTextFile(registryPath, options.registryYaml ?? await readExampleRegistry());
  }
  const upstream = await startFakeUpstream();
  upstream.addPypiResponse("cryptography", CRYPTOGRAPHY_PROJECT);
  const settings = loadSettings({
    POLICY_DB_PATH: join(dir, "policyd.db"),
    REGISTRY_PATH: registryPath,
    REGISTRY_RELOAD_INTERVAL: "0",
    CVE_SCAN_SCHEDULE: "off",
    REDIS_URL: "none",
    OSV_API_URL: upstream.url,
    PYPI_URL: upstream.url,
    REGISTRY_PROPOSER: "log_only",
    ...options.env,
  });
  let ids = 0;
  const built = await buildServer(settings, {
    log: silentLogger,
    now: () => new Date(DOC_TIME),
    requestIds: () => `doc-${++ids}`,
    accessLog: false,
    background: false,
  });
  return {
    built,
    dir,
    registryPath,
    upstream,
    async close() {
      await built.close();
      await upstream.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
