/**
 * `/dashboard/registry`: the registry workshop. The server renders the
 * shell; `workshop.js` fills it from the JSON API (live registry, pending
 * queue, health) and posts proposals and YAML imports.
 *
 * @module
 */
import { REGISTRY_STATUSES } from "../../src/core/types.ts";
import { Card, PageHeader } from "../components.tsx";
import { type Chrome, Layout } from "../layout.tsx";

/** View model of the workshop shell. */
export interface RegistryView {
  chrome: Chrome;
}

function Loading() {
  return <p class="empty">Loading…</p>;
}

/** The registry workshop page. */
export function RegistryPage(props: { view: RegistryView }) {
  return (
    <Layout
      title="Registry workshop"
      active="/dashboard/registry"
      chrome={props.view.chrome}
      scripts={[
        "workshop_core.js",
        "workshop_registry.js",
        "workshop_pending.js",
        "workshop_propose.js",
        "workshop_import.js",
        "workshop.js",
      ]}
    >
      <PageHeader title="Registry workshop">
        Triage packages waiting for review, propose rules, and import or export the registry as
        YAML. Every change goes through the configured proposer; nothing edits the live registry
        directly.
      </PageHeader>
      <noscript>
        <p class="notice warn">
          The workshop needs JavaScript. The data it shows is available as JSON at{" "}
          <a href="/api/v1/registry">/api/v1/registry</a> and{" "}
          <a href="/api/v1/registry/pending">/api/v1/registry/pending</a>.
        </p>
      </noscript>
      <div id="proposer-note" class="notice" role="status" data-testid="proposer-note"></div>

      <Card
        title="Pending review"
        id="pending"
        hint="Packages requested or seen in evaluations that the registry does not list yet, highest signal first."
      >
        <div class="row">
          <label for="pending-days">Window</label>
          <select id="pending-days">
            <option value="7">last 7 days</option>
            <option value="30" selected>last 30 days</option>
            <option value="90">last 90 days</option>
            <option value="365">last 365 days</option>
          </select>
          <button type="button" class="secondary" id="pending-refresh">Refresh</button>
        </div>
        <div
          id="pending-result"
          class="notice"
          role="status"
          aria-live="polite"
          data-testid="pending-result"
        >
        </div>
        <div id="pending-body" data-testid="pending-body">
          <Loading />
        </div>
      </Card>

      <Card
        title="Propose a rule"
        id="propose"
        hint="Classify any package. Approve and Prefer on a pending row propose at once; the other buttons fill in this form."
      >
        <form id="rule-form" data-testid="rule-form">
          <div class="form-grid">
            <div>
              <label for="rule-name">Package</label>
              <input type="text" id="rule-name" name="name" required autocomplete="off" />
            </div>
            <div>
              <label for="rule-status">Status</label>
              <select id="rule-status" name="status">
                {REGISTRY_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
              </select>
            </div>
            <div>
              <label for="rule-reason">Reason</label>
              <input type="text" id="rule-reason" name="reason" autocomplete="off" />
            </div>
            <div>
              <label for="rule-replacement">Replacement</label>
              <input type="text" id="rule-replacement" name="replacement" autocomplete="off" />
            </div>
            <div>
              <label for="rule-min">Min version</label>
              <input type="text" id="rule-min" name="min_version" autocomplete="off" />
            </div>
            <div>
              <label for="rule-max">Max version</label>
              <input type="text" id="rule-max" name="max_version" autocomplete="off" />
            </div>
          </div>
          <button type="submit">Propose rule</button>
        </form>
        <div
          id="proposal-result"
          class="notice"
          role="status"
          aria-live="polite"
          data-testid="proposal-result"
        >
        </div>
      </Card>

      <div class="grid">
        <Card
          title="Import YAML"
          id="import"
          hint="Validates a registry document with the server's validator and compares it with the live registry."
        >
          <form id="import-form" data-testid="import-form">
            <div class="row">
              <div>
                <label for="import-file">YAML file</label>
                <input
                  type="file"
                  id="import-file"
                  accept=".yaml,.yml,text/yaml,application/yaml"
                />
              </div>
            </div>
            <label for="import-text">Registry YAML</label>
            <textarea
              id="import-text"
              name="yaml"
              spellcheck={false}
              placeholder="packages:&#10;  - name: requests&#10;    status: preferred"
            >
            </textarea>
            <div class="row">
              <button type="submit">Validate</button>
            </div>
          </form>
          <div
            id="import-result"
            class="notice"
            role="status"
            aria-live="polite"
            data-testid="import-result"
          >
          </div>
          <div
            id="import-propose-result"
            class="notice"
            role="status"
            aria-live="polite"
            data-testid="import-propose-result"
          >
          </div>
        </Card>

        <Card title="Export YAML" id="export">
          <p>
            Download the live registry as a YAML document that validates against the registry
            schema.
          </p>
          <p>
            <a
              class="button"
              id="export-link"
              href="/dashboard/registry/export.yaml"
              download="registry.yaml"
            >
              Download registry.yaml
            </a>
          </p>
          <div id="export-proposals" hidden>
            <p class="hint">
              Rules proposed in this session that are not live yet (waiting for a merge, or only
              logged). Download the registry with them and commit it where the registry lives.
            </p>
            <p>
              <a
                class="button secondary"
                id="export-with-proposals"
                href="/dashboard/registry/export.yaml"
                download="registry.yaml"
              >
                Download with proposed rules
              </a>
            </p>
          </div>
        </Card>
      </div>
      <Card title="Live registry" id="registry">
        <div class="row">
          <label for="registry-filter">Filter</label>
          <input
            type="search"
            id="registry-filter"
            placeholder="name, status or reason"
            autocomplete="off"
          />
          <span id="registry-summary" class="muted" data-testid="registry-summary"></span>
        </div>
        <div id="registry-policies" class="hint"></div>
        <div id="registry-body" data-testid="registry-body">
          <Loading />
        </div>
      </Card>
    </Layout>
  );
}
