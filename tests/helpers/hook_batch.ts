/**
 * Runs the `policy hook` command once per line of standard input, in one process: each line is
 * `{"agent": NAME, "payload": {…}}`, each output line `{"stdout": …, "stderr": …}`. The same
 * command function the CLI runs (`commands/hook.ts`), with the real process environment, so a
 * corpus of hundreds of commands stays fast (tests/e2e/gate_corpus_test.ts).
 *
 *   deno run -A tests/helpers/hook_batch.ts < events.jsonl
 *
 * @module
 */

import { hook } from "../../cli/policy/commands/hook.ts";
import type { Agent } from "../../cli/policy/agents/names.ts";

const text = new TextDecoder().decode(await new Response(Deno.stdin.readable).arrayBuffer());
const encoder = new TextEncoder();
for (const line of text.split("\n")) {
  if (line.trim() === "") continue;
  const { agent, payload } = JSON.parse(line) as { agent: Agent; payload: unknown };
  let stdout = "";
  let stderr = "";
  await hook({
    cwd: Deno.cwd(),
    env: (name) => Deno.env.get(name),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: () => Promise.resolve(JSON.stringify(payload)),
    readLine: () => Promise.resolve(null),
    stdinIsTerminal: () => false,
    selfCommand: [],
  }, { agent });
  Deno.stdout.writeSync(encoder.encode(JSON.stringify({ stdout, stderr }) + "\n"));
}
