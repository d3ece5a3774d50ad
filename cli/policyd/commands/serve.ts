/**
 * `policyd serve [--host] [--port]`: runs the server until SIGINT/SIGTERM,
 * then shuts down gracefully (in-flight requests finish, every part closes).
 *
 * @module
 */
import { loadSettings, SettingsError } from "../../../src/settings.ts";
import { createLogger } from "../../../src/log/logger.ts";
import { startServer, StartupError } from "../../../src/server.ts";
import { CommandError, type CommandIO } from "../io.ts";

/** Options of `serve`. */
export interface ServeOptions {
  host?: string;
  port?: number;
  /** Printed once the server listens (quickstart's banner). */
  banner?: (url: string) => string;
}

/** Runs the server with settings from `io.env` and the options. */
export async function serve(options: ServeOptions, io: CommandIO): Promise<number> {
  const env = { ...io.env };
  if (options.host) env.POLICY_HOST = options.host;
  if (options.port !== undefined) env.POLICY_PORT = String(options.port);
  let settings;
  try {
    settings = loadSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) throw new CommandError(error.message);
    throw error;
  }
  const log = createLogger(settings.LOG_LEVEL);
  let running;
  try {
    running = await startServer(settings, { log });
  } catch (error) {
    if (error instanceof StartupError) throw new CommandError(error.message);
    throw error;
  }
  log.info("policyd listening", { url: running.url });
  io.stdout(options.banner ? options.banner(running.url) : `policyd listening on ${running.url}\n`);
  // `finished` rejects when the accept loop met a fatal error: exit non-zero,
  // so a supervisor restarts the server (issue 34).
  const failure = await Promise.race([io.stopSignal, running.finished]).then(
    () => null,
    (error: Error) => error,
  );
  log.info("policyd shutting down");
  await running.shutdown().catch(() => {});
  if (failure) throw new CommandError(`the server stopped: ${failure.message}`);
  return 0;
}
