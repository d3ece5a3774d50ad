/**
 * `policy audit`: evaluates every runtime dependency of `pyproject.toml` in
 * the working tree in one batch; exit 0 all allowed, 1 provisional or
 * transport errors, 2 any denied (SPEC §11, §15.23).
 *
 * @module
 */

import { join } from "node:path";
import { clientFromConfig } from "../api_client.ts";
import { loadConfig } from "../config.ts";
import { ClientError, EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";
import { pinnedVersion, runtimeDependencies } from "../pyproject.ts";
import { renderEvaluation } from "./check.ts";

/** Options of `audit`. */
export interface AuditOptions {
  json: boolean;
  agentModel?: string;
  agentVersion?: string;
}

/** Runs `audit`. */
export async function audit(options: AuditOptions, io: Io): Promise<number> {
  const config = loadConfig(io.cwd);
  const path = join(config.root, "pyproject.toml");
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    throw new ClientError("no_input", `No pyproject.toml at ${path}`);
  }
  const deps = runtimeDependencies(text);
  const client = clientFromConfig(config, {
    source: "audit",
    agentModel: options.agentModel,
    agentVersion: options.agentVersion,
    env: io.env,
    fetch: io.fetch,
  });
  const entries = [...deps];
  const results = entries.length
    ? await client.evaluateBatch(
      entries.map(([name, spec]) => ({ package: name, version: pinnedVersion(spec) })),
    )
    : [];
  const count = (pred: (v: (typeof results)[number]) => boolean) => results.filter(pred).length;
  const summary = {
    allowed: count((r) => r.verdict === "ALLOWED" && !r.transport_error),
    provisional: count((r) => r.verdict === "PROVISIONALLY_ALLOWED"),
    denied: count((r) => r.verdict === "DENIED"),
    transport_errors: count((r) => r.transport_error === true),
  };
  if (options.json) {
    const rows = results.map((r, i) => ({ ...r, specifier: entries[i][1] }));
    io.stdout(
      JSON.stringify(
        { project: config.project, checked: results.length, summary, results: rows },
        null,
        2,
      ) +
        "\n",
    );
  } else {
    for (const r of results) io.stdout(`${r.verdict.padEnd(22)} ${renderEvaluation(r)}\n`);
    io.stdout(
      `${results.length} runtime dependencies: ${summary.allowed} allowed, ${summary.provisional} ` +
        `provisional, ${summary.denied} denied, ${summary.transport_errors} not checked\n`,
    );
  }
  if (summary.transport_errors) {
    io.stderr(`policy: warning: ${results.find((r) => r.transport_error)!.reason}\n`);
  }
  if (summary.denied) return EXIT.DENIED;
  if (summary.provisional || summary.transport_errors) return EXIT.PROVISIONAL;
  return EXIT.OK;
}
