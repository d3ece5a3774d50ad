/**
 * The `status` report: one section per line, each with a flag, every
 * section rendered even when the server or the config is broken (SPEC §11,
 * §15.13, §15.23).
 *
 * @module
 */

import type { ApiClient } from "./api_client.ts";
import { ClientError } from "./exit_codes.ts";
import type { Dependencies } from "./pyproject.ts";

/** Flag of one section. */
export type Flag = "ok" | "warn" | "fail";

/** One line of the report. */
export interface Section {
  name: "server" | "hooks" | "pending_approvals" | "cve_denials" | "dependencies" | "index";
  flag: Flag;
  detail: string;
}

/** Everything the report reads, gathered by the command. */
export interface StatusInputs {
  serverUrl: string;
  /** A client, or the config error that prevented building one. */
  client: Pick<ApiClient, "health" | "pendingApprovals" | "securityReport"> | ClientError;
  precommitInstalled: boolean;
  claudeHooksInstalled: boolean;
  /** Runtime deps of the working-tree pyproject.toml; null when absent; an Error when unparsable. */
  dependencies: Dependencies | null | Error;
}

function why(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function attempt<T>(
  client: StatusInputs["client"],
  fn: (c: Exclude<StatusInputs["client"], ClientError>) => Promise<T>,
): Promise<T | Error> {
  if (client instanceof ClientError) return client;
  try {
    return await fn(client);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Builds the five sections, in the order of SPEC §15.13. */
export async function statusSections(inputs: StatusInputs): Promise<Section[]> {
  const [health, pending, security] = await Promise.all([
    attempt(inputs.client, (c) => c.health()),
    attempt(inputs.client, (c) => c.pendingApprovals()),
    attempt(inputs.client, (c) => c.securityReport()),
  ]);
  const sections: Section[] = [];

  sections.push(
    health instanceof Error ? { name: "server", flag: "fail", detail: why(health) } : {
      name: "server",
      flag: health.status === "ok" ? "ok" : "warn",
      detail: `${inputs.serverUrl} reachable (status ${health.status}` +
        (health.version ? `, version ${health.version}` : "") +
        (typeof health.registry_version === "string"
          ? `, registry ${health.registry_version}`
          : "") +
        ")",
    },
  );

  const hooks = [
    inputs.precommitInstalled ? "pre-commit installed" : "pre-commit missing",
    inputs.claudeHooksInstalled ? "Claude Code hooks installed" : "Claude Code hooks missing",
  ];
  sections.push({
    name: "hooks",
    flag: inputs.precommitInstalled && inputs.claudeHooksInstalled ? "ok" : "warn",
    detail: hooks.join(", ") +
      (inputs.precommitInstalled && inputs.claudeHooksInstalled ? "" : " (run `policy init`)"),
  });

  if (pending instanceof Error) {
    sections.push({
      name: "pending_approvals",
      flag: "warn",
      detail: `unavailable: ${why(pending)}`,
    });
  } else {
    const names = pending.items.map((i) => i.package);
    sections.push({
      name: "pending_approvals",
      flag: names.length ? "warn" : "ok",
      detail: names.length
        ? `${names.length} pending: ${names.slice(0, 10).join(", ")}${
          names.length > 10 ? ", …" : ""
        }`
        : "none pending",
    });
  }

  if (security instanceof Error) {
    sections.push({ name: "cve_denials", flag: "warn", detail: `unavailable: ${why(security)}` });
  } else {
    const top = security.top_packages.slice(0, 5).map((p) => `${p.package} (${p.denials})`);
    sections.push({
      name: "cve_denials",
      flag: security.total_denials ? "warn" : "ok",
      detail: security.total_denials
        ? `${security.total_denials} CVE-driven denials in the last 30 days: ${top.join(", ")}`
        : "no CVE-driven denials in the last 30 days",
    });
  }

  const deps = inputs.dependencies;
  sections.push(
    deps === null
      ? { name: "dependencies", flag: "warn", detail: "no pyproject.toml in the project root" }
      : deps instanceof Error
      ? { name: "dependencies", flag: "fail", detail: why(deps) }
      : {
        name: "dependencies",
        flag: "ok",
        detail: `${deps.size} runtime dependencies in pyproject.toml`,
      },
  );
  return sections;
}

/** One screen of text: `flag  name  detail` per line. */
export function renderStatus(sections: Section[]): string {
  const width = Math.max(...sections.map((s) => s.name.length));
  return sections.map((s) => `[${s.flag.padEnd(4)}] ${s.name.padEnd(width)}  ${s.detail}`).join(
    "\n",
  ) +
    "\n";
}
