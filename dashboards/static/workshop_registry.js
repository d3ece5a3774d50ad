// policyd registry workshop, the proposer notice and the live registry. Plain browser JavaScript loaded in
// order by the workshop page (workshop_core.js first, workshop.js last); the
// parts share one namespace, globalThis.policydWorkshop, and put every text
// in through textContent, never innerHTML.
"use strict";

(function () {
  const W = globalThis.policydWorkshop;
  const { $, el, badge, notice, api, state, table, LOCAL_PROPOSERS } = W;

  // ---- proposer mode ----

  async function loadHealth() {
    const note = $("proposer-note");
    try {
      const health = await api("/health");
      state.proposer = health.proposer || "unknown";
    } catch (error) {
      notice(note, "error", "Cannot read /api/v1/health: " + error.message);
      return;
    }
    const p = state.proposer;
    const name = el("code", { text: p });
    if (LOCAL_PROPOSERS.includes(p)) {
      notice(
        note,
        "ok",
        "Proposer ",
        name,
        ": a classification is written to the registry file and reloaded at once.",
      );
    } else if (p === "github") {
      notice(
        note,
        "warn",
        "Proposer ",
        name,
        ": a classification opens or amends a pull request; the rule goes live after the merge.",
      );
    } else if (p === "log_only") {
      notice(
        note,
        "warn",
        "Proposer ",
        name,
        ": classifications are only logged and change nothing. Export the YAML to carry rules over.",
      );
    } else {
      notice(note, "info", "Proposer ", name, ": see its result after each classification.");
    }
  }

  // ---- live registry ----

  function versionRange(rule) {
    if (!rule.min_version && !rule.max_version) return "any";
    return (rule.min_version ? "≥ " + rule.min_version : "") +
      (rule.min_version && rule.max_version ? ", " : "") +
      (rule.max_version ? "≤ " + rule.max_version : "");
  }

  function renderRegistry() {
    const registry = state.registry;
    if (!registry) return;
    const filter = $("registry-filter").value.trim().toLowerCase();
    const rules = registry.packages.filter((rule) =>
      !filter ||
      [rule.name, rule.status, rule.reason || "", rule.replacement || ""].some((v) =>
        v.toLowerCase().includes(filter)
      )
    );
    $("registry-summary").textContent = "Version " + registry.version + " · " +
      registry.packages.length +
      " packages" + (filter ? " · " + rules.length + " shown" : "");
    const p = registry.policies;
    $("registry-policies").textContent = "Policies: CVE threshold " + p.cve_threshold +
      (p.block_on_cve ? " (blocks)" : " (does not block)") + " · unversioned CVE scope " +
      p.unversioned_cve_scope + " · unknown licenses " + p.unknown_license_policy +
      " · allowed licenses " +
      p.licenses.allowed.join(", ") + " · denied licenses " + p.licenses.denied.join(", ");
    const side = document.querySelector("[data-testid=side-registry-version]");
    if (side) side.textContent = registry.version;
    // The side panel's count follows the live registry too (no stale 34 beside a page of 36).
    const count = document.querySelector("[data-testid=side-package-count]");
    if (count) count.textContent = String(registry.packages.length);
    if (rules.length === 0) {
      $("registry-body").replaceChildren(
        el("p", {
          class: "empty",
          text: filter ? "No rule matches the filter." : "The registry has no rules.",
        }),
      );
      return;
    }
    const rows = rules.map((rule) =>
      el(
        "tr",
        { "data-package": rule.name },
        el(
          "td",
          {},
          el(
            "a",
            { href: "/dashboard/package/" + encodeURIComponent(rule.name) },
            el("code", { text: rule.name }),
          ),
        ),
        el("td", {}, badge(rule.status)),
        el("td", { text: versionRange(rule) }),
        el("td", { text: rule.reason || "" }),
        el("td", { text: rule.replacement || "" }),
        el(
          "td",
          {},
          el("button", {
            type: "button",
            class: "secondary small",
            "aria-label": "Change the rule of " + rule.name,
            text: "Change…",
            onclick: () => W.fillForm(rule),
          }),
        ),
      )
    );
    $("registry-body").replaceChildren(
      table(
        ["Package", "Status", "Versions", "Reason", "Replacement", ""],
        rows,
        "registry-table",
        "Live registry",
      ),
    );
  }

  async function loadRegistry() {
    try {
      state.registry = await api("/registry");
      renderRegistry();
    } catch (error) {
      $("registry-body").replaceChildren(
        el("p", { class: "notice error", text: "Cannot load the registry: " + error.message }),
      );
    }
  }

  W.loadHealth = loadHealth;
  W.renderRegistry = renderRegistry;
  W.loadRegistry = loadRegistry;
})();
