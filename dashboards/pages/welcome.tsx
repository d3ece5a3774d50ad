/**
 * `/`: what policyd is, the live registry at a glance, quick links, and how
 * to evaluate a package with curl and the `policy` client.
 *
 * @module
 */
import { Badge, Bars, Card, formatTime, PageHeader, Stats } from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the welcome page. */
export interface WelcomeView {
  chrome: Chrome;
  /** Base URL of this server as the browser sees it, for the examples. */
  origin: string;
  proposer: string;
  compiledAt: string;
  /** Registry rules per status. */
  statusCounts: Array<{ status: string; count: number }>;
  cveThreshold: number;
  blockOnCve: boolean;
  unknownLicensePolicy: string;
}

/** The welcome page. */
export function WelcomePage(props: { view: WelcomeView }) {
  const v = props.view;
  const base = v.origin;
  return (
    <Layout title="Overview" active="/" chrome={v.chrome}>
      <PageHeader title="policyd">
        A dependency policy service for Python packages: it answers whether a package (and version)
        may be used, records every decision in an audit log, and keeps a reviewed registry of
        package rules.
      </PageHeader>

      <Stats
        items={[
          {
            label: "Registry version",
            value: v.chrome.registryVersion,
            small: true,
            testid: "registry-version",
          },
          {
            label: "Packages in the registry",
            value: v.chrome.packageCount,
            testid: "package-count",
          },
          {
            label: "CVE threshold (CVSS)",
            value: v.blockOnCve ? v.cveThreshold.toFixed(1) : "off",
          },
          { label: "Proposer", value: v.proposer, small: true, testid: "proposer" },
        ]}
      />

      <div class="grid">
        <Card
          title="Registry at a glance"
          hint={`Compiled ${
            formatTime(v.compiledAt)
          }. Unknown licenses: ${v.unknownLicensePolicy}.`}
        >
          {v.statusCounts.length
            ? (
              <Bars
                label="Rules per status"
                items={v.statusCounts.map((s) => ({
                  label: s.status,
                  count: s.count,
                  kind: s.status,
                }))}
              />
            )
            : <p class="empty">The registry has no package rules yet.</p>}
        </Card>

        <Card title="Quick links">
          <ul>
            <li>
              <a href="/dashboard/security">Security report</a>{" "}
              — CVE denials, severities, scanner alerts
            </li>
            <li>
              <a href="/dashboard/legal">Legal report</a> — license-driven denials and license mix
            </li>
            <li>
              <a href="/dashboard/agents">Agents report</a> — evaluations per coding assistant
            </li>
            <li>
              <a href="/dashboard/registry">Registry workshop</a>{" "}
              — triage pending packages, import and export YAML
            </li>
            <li>
              <a href="/api/v1/openapi.json">OpenAPI description</a> and{" "}
              <a href="/api/v1/workflows.md">workflows.md</a>
            </li>
          </ul>
        </Card>
      </div>

      <Card title="Evaluate a package with curl">
        <pre><code>{`curl '${base}/api/v1/evaluate?package=requests'
curl '${base}/api/v1/evaluate?package=pyyaml&version=5.3' -H 'X-Policy-Project: my-app'
curl -X POST '${base}/api/v1/evaluate/batch' -H 'Content-Type: application/json' \\
  -d '{"packages":[{"package":"flask"},{"package":"pycrypto"}]}'`}</code></pre>
        <p class="hint">
          The verdict is <Badge kind="ALLOWED" />, <Badge kind="PROVISIONALLY_ALLOWED" /> or{" "}
          <Badge kind="DENIED" />; every evaluation writes one audit row that the reports read.
        </p>
      </Card>

      <Card title="Evaluate with the policy client">
        <pre><code>{`policy init --server-url ${base}   # config, pre-commit and assistant hooks
policy check requests                      # exit 0 allowed, 1 provisional, 2 denied
policy check pyyaml --version 5.3 --json
policy request-approval some-package --rationale "why we need it"
policy status`}</code></pre>
      </Card>
    </Layout>
  );
}
