/**
 * Entry point of the `policyd` server command line. The only module of the
 * server side that touches `Deno.args`, signals and `Deno.exit`.
 *
 * @module
 */
import { run } from "./policyd/program.ts";
import { flushLogLines } from "../src/log/logger.ts";

if (import.meta.main) {
  const encoder = new TextEncoder();
  const stopSignal = new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGINT", () => resolve());
    Deno.addSignalListener("SIGTERM", () => resolve());
  });
  const code = await run(Deno.args, {
    stdout: (text) => Deno.stdout.writeSync(encoder.encode(text)),
    stderr: (text) => {
      flushLogLines(); // log lines first, in the order they were written
      Deno.stderr.writeSync(encoder.encode(text));
    },
    env: Deno.env.toObject(),
    stopSignal,
  });
  flushLogLines();
  Deno.exit(code);
}
