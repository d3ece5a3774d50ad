/**
 * Starts a real policyd on a loopback port for integration and end-to-end
 * tests: temp directory, SQLite file, a copy of the example registry (or a
 * given YAML), background tasks off unless asked for.
 *
 * @module
 */
import { join } from "node:path";
import { loadSettings } from "../../src/settings.ts";
import { createLogger, type Logger } from "../../src/log/logger.ts";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { type BuildOptions, type RunningServer, startServer } from "../../src/server.ts";
import { noLicenseData, noVulnerabilityData } from "../../src/lookups/none.ts";

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /** Registry YAML to serve; default: the example registry. */
  registryYaml?: string;
  /** Extra environment (settings) for this server. */
  env?: Record<string, string>;
  /** Run the reload poller and scanner (default false). */
  background?: boolean;
  /** Collect log lines here instead of discarding them. */
  logLines?: string[];
  /** Further build options (clock, request ids, lookups). */
  build?: Partial<BuildOptions>;
  /** Bind address (default 127.0.0.1). */
  hostname?: string;
}

/** A running test server. */
export interface TestServer {
  url: string;
  dir: string;
  registryPath: string;
  dbPath: string;
  running: RunningServer;
  close(): Promise<void>;
}

/** Starts a policyd server on an ephemeral loopback port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await Deno.makeTempDir({ prefix: "policyd-test-" });
  const registryPath = join(dir, "registry.yaml");
  const dbPath = join(dir, "policyd.db");
  await Deno.writeTextFile(registryPath, options.registryYaml ?? await readExampleRegistry());
  const settings = loadSettings({
    POLICY_DB_PATH: dbPath,
    REGISTRY_PATH: registryPath,
    REGISTRY_RELOAD_INTERVAL: "0",
    CVE_SCAN_SCHEDULE: "off",
    REDIS_URL: "none",
    LOOKUP_TIMEOUT_MS: "1000",
    ...options.env,
  });
  const log: Logger = options.logLines
    ? createLogger("debug", (line) => options.logLines!.push(line))
    : createLogger("error", () => {});
  const running = await startServer(settings, {
    log,
    hostname: options.hostname ?? "127.0.0.1",
    port: 0,
    background: options.background ?? false,
    accessLog: options.logLines !== undefined,
    // Without upstream URLs in `env`, lookups are off: no test reaches the internet.
    ...(options.env?.OSV_API_URL || options.env?.PYPI_URL
      ? {}
      : { lookups: { vulnerabilities: noVulnerabilityData, licenses: noLicenseData } }),
    ...options.build,
  });
  return {
    url: running.url,
    dir,
    registryPath,
    dbPath,
    running,
    async close() {
      await running.shutdown();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Runs `body` against a fresh test server and closes it afterwards. */
export async function withTestServer(
  options: TestServerOptions,
  body: (server: TestServer) => Promise<void>,
): Promise<void> {
  const server = await startTestServer(options);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}
