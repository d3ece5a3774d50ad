/**
 * Entry point of the workflows runner and exporter
 * (`deno run -A cli/workflows.ts run|check|export …`); see docs/workflows.md.
 *
 * @module
 */
import { main } from "../src/workflows/cli.ts";

if (import.meta.main) {
  const code = await main(Deno.args, {
    cwd: Deno.cwd(),
    env: (name) => Deno.env.get(name),
    log: (line) => console.error(line),
  });
  Deno.exit(code);
}
