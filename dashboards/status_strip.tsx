/**
 * What the pages say about the services their numbers depend on (issue
 * #31): an upstream status strip on every page (OSV, PyPI and any other
 * upstream `/health` reports) and, on the security page, the CVE scanner's
 * state, in words that never read as an all-clear the server cannot know.
 *
 * @module
 */
import { formatTime } from "./components.tsx";

/** One upstream as `/health` reports it. */
export interface UpstreamView {
  status: "ok" | "failing" | "unknown";
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
}

/** The scanner as this instance knows it. */
export interface ScannerView {
  enabled: boolean;
  running: boolean;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_rows: number | null;
  last_error: string | null;
}

/** The server state the pages show. */
export interface DashboardStatus {
  upstreams: Record<string, UpstreamView>;
  scanner: ScannerView | null;
}

const UPSTREAM_LABELS: Record<string, string> = {
  osv: "OSV (vulnerabilities)",
  pypi: "PyPI (licenses, releases)",
  index: "Index upstream",
};

/** One upstream in words. */
export function upstreamSentence(u: UpstreamView): string {
  if (u.status === "ok") return `answering (last answer ${formatTime(u.last_success_at)})`;
  if (u.status === "failing") {
    const since = u.last_success_at
      ? `last answer ${formatTime(u.last_success_at)}`
      : "no answer since the start";
    return `failing (${since})`;
  }
  return "not called since the start";
}

/**
 * The scanner's state in words: off, never ran, running, ran with an error,
 * ran while OSV was failing, ran with no alerts, or ran with N alerts.
 */
export function scannerSentence(scanner: ScannerView | null, osv?: UpstreamView): string {
  if (!scanner) return "The scanner's state is not known to this page.";
  if (!scanner.enabled) {
    return "The CVE scanner is off (CVE_SCAN_SCHEDULE), so it raises no alerts.";
  }
  if (scanner.running) return "The CVE scanner is running now.";
  if (!scanner.last_finished_at) {
    return "The CVE scanner has never run since the server started, so no alert means nothing yet.";
  }
  const at = formatTime(scanner.last_finished_at);
  if (scanner.last_error) return `The CVE scanner ran at ${at} and failed: ${scanner.last_error}.`;
  const osvFailed = osv?.status === "failing" && osv.last_error_at !== null &&
    scanner.last_started_at !== null && osv.last_error_at >= scanner.last_started_at;
  if (osvFailed) {
    return `The CVE scanner ran at ${at} with OSV failing, so its pass may have missed advisories.`;
  }
  const rows = scanner.last_rows ?? 0;
  return rows === 0
    ? `The CVE scanner ran at ${at}: no alerts.`
    : `The CVE scanner ran at ${at}: ${rows} alert${rows === 1 ? "" : "s"}.`;
}

/** The strip at the top of every page. */
export function StatusStrip(props: { status: DashboardStatus }) {
  const entries = Object.entries(props.status.upstreams);
  const failing = entries.some(([, u]) => u.status === "failing");
  return (
    <aside
      class={failing ? "status-strip failing" : "status-strip"}
      aria-label="Upstream services"
      data-testid="status-strip"
    >
      <ul>
        {entries.map(([name, u]) => (
          <li key={name} class={`upstream ${u.status}`} data-upstream={name}>
            <span class="name">{UPSTREAM_LABELS[name] ?? name}</span>{" "}
            <span class="state" title={u.last_error ?? u.status}>{upstreamSentence(u)}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
