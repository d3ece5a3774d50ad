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
  name:
    | "server"
    | "upstreams"
    | "hooks"
    | "pending_approvals"
    | "cve_denials"
    | "dependencies"
    | "index";
  flag: Flag;
  detail: string;
}

/** Everything the report reads, gathered by the command. */
export interface StatusInputs {
  serverUrl: string;
  /** A client, or the config error that prevented building one. */
  client: Pick<ApiClient, "health" | "pendingApprovals" | "securityReport"> | ClientError;
  precommitInstalled: boolean;
  /**
   * policyd's hook in the pre-commit framework's `.pre-commit-config.yaml`:
   * `active` when `pre-commit install` put the framework in the git hook,
   * `configured` when not (yet), null when the config has no such hook.
   */
  precommitFramework?: "active" | "configured" | null;
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

/** The state of one upstream as `/health` reports it (fields this report reads). */
interface UpstreamView {
  status?: unknown;
  breaker?: unknown;
  retry_at?: unknown;
  last_error?: unknown;
}

const UPSTREAM_LABELS: Record<string, string> = { osv: "OSV", pypi: "PyPI" };

/** The upstreams section: OSV's and PyPI's state from `/health`, warn when one fails. */
export function upstreamsSection(health: { upstreams?: unknown } | Error): Section {
  if (health instanceof Error) {
    return { name: "upstreams", flag: "warn", detail: `unavailable: ${why(health)}` };
  }
  const upstreams = health.upstreams;
  if (typeof upstreams !== "object" || upstreams === null) {
    return { name: "upstreams", flag: "warn", detail: "the server does not report its upstreams" };
  }
  const parts: string[] = [];
  let failing = false;
  for (const [name, raw] of Object.entries(upstreams as Record<string, UpstreamView>)) {
    const label = UPSTREAM_LABELS[name] ?? name;
    if (raw?.status === "failing") {
      failing = true;
      const until = raw.breaker === "open" && typeof raw.retry_at === "string"
        ? `, skipped until ${raw.retry_at}`
        : "";
      const error = typeof raw.last_error === "string" ? `: ${raw.last_error}` : "";
      parts.push(`${label} failing${until}${error}`);
    } else {
      parts.push(`${label} ${raw?.status === "ok" ? "ok" : "not asked yet"}`);
    }
  }
  return {
    name: "upstreams",
    flag: failing ? "warn" : "ok",
    detail: parts.join("; ") +
      (failing ? " (decisions that need this data say it was unavailable)" : ""),
  };
}

function hooksSection(inputs: StatusInputs): Section {
  const framework = inputs.precommitFramework ?? null;
  const precommit = inputs.precommitInstalled
    ? "pre-commit installed"
    : framework === "active"
    ? "pre-commit framework hook installed"
    : framework === "configured"
    ? "pre-commit framework hook configured but not active (run `pre-commit install`)"
    : "pre-commit missing";
  const precommitOk = inputs.precommitInstalled || framework === "active";
  const ok = precommitOk && inputs.claudeHooksInstalled;
  const hooks = [
    precommit,
    inputs.claudeHooksInstalled ? "Claude Code hooks installed" : "Claude Code hooks missing",
  ];
  const advice = !inputs.claudeHooksInstalled || (!precommitOk && framework === null)
    ? " (run `policy init`)"
    : "";
  return { name: "hooks", flag: ok ? "ok" : "warn", detail: hooks.join(", ") + advice };
}

/**
 * Builds the sections: the five of SPEC §15.13 in its order, then the
 * upstreams (added last so the five keep their places).
 */
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

  sections.push(hooksSection(inputs));

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
        detail: `${deps.size} runtime ${
          deps.size === 1 ? "dependency" : "dependencies"
        } in pyproject.toml`,
      },
  );
  sections.push(upstreamsSection(health));
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
