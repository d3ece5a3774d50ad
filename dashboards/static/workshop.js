// policyd registry workshop: reads and writes through the JSON API only.
// Plain browser JavaScript, no dependencies; every text goes in through
// textContent, never innerHTML.
"use strict";

(function () {
  const API = "/api/v1";
  const STATUSES = ["preferred", "approved", "version-constrained", "deprecated", "banned"];
  const LOCAL_PROPOSERS = ["local_file", "local_git"];

  const state = {
    registry: null,
    proposer: "unknown",
    // Rules proposed here that are not live yet (github PRs, log_only), by name.
    proposed: new Map(),
    importedRules: [],
  };

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function badge(kind) {
    return el("span", { class: "badge " + kind, text: kind });
  }

  function notice(target, kind, ...children) {
    target.className = "notice " + kind;
    target.replaceChildren(...children);
  }

  // Absolute file paths of the server are not the reader's business: name the file instead.
  function scrubPaths(text) {
    return String(text || "").replace(
      /(?:[A-Za-z]:)?(?:\/[\w.@+~-]+){2,}\/?/g,
      "the registry file",
    );
  }

  function errorList(errors) {
    return el(
      "ul",
      {},
      errors.map((e) => {
        const where = e.line !== undefined && !/^line \d/.test(e.path)
          ? el("span", { class: "muted", text: " (line " + e.line + ", column " + e.column + ")" })
          : "";
        return el("li", {}, el("code", { text: e.path }), where, ": " + scrubPaths(e.message));
      }),
    );
  }

  // Fetches JSON; a problem+json answer becomes an Error with detail and errors.
  async function api(path, init) {
    const response = await fetch(API + path, {
      ...init,
      headers: { accept: "application/json", ...(init && init.headers) },
    });
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (!response.ok) {
      const error = new Error((body && body.detail) || response.status + " " + response.statusText);
      error.status = response.status;
      error.errors = (body && body.errors) || [];
      error.body = body;
      throw error;
    }
    return body;
  }

  function formatTime(iso) {
    if (!iso) return "—";
    const date = new Date(iso);
    return Number.isNaN(date.getTime())
      ? iso
      : date.toISOString().slice(0, 16).replace("T", " ") + " UTC";
  }

  // A sortable table; on a phone it becomes cards (each cell labelled by its header).
  function table(headers, rows, testid, label) {
    for (const row of rows) {
      [...row.children].forEach((cell, i) => {
        if (headers[i]) cell.setAttribute("data-label", headers[i]);
      });
    }
    const node = el(
      "table",
      { "data-testid": testid, class: "sortable cards" },
      el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, rows),
    );
    if (globalThis.policydSortable) globalThis.policydSortable(node);
    return el(
      "div",
      { class: "table-wrap", tabindex: "0", role: "region", "aria-label": label },
      node,
    );
  }

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
            onclick: () => fillForm(rule),
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

  // ---- pending queue ----

  async function loadPending() {
    const body = $("pending-body");
    body.setAttribute("aria-busy", "true");
    try {
      const days = $("pending-days").value;
      const data = await api("/registry/pending?days=" + encodeURIComponent(days));
      renderPending(data.items || []);
    } catch (error) {
      body.replaceChildren(
        el("p", { class: "notice error", text: "Cannot load the pending queue: " + error.message }),
      );
    } finally {
      body.removeAttribute("aria-busy");
    }
  }

  function renderPending(items) {
    if (items.length === 0) {
      $("pending-body").replaceChildren(
        el("p", { class: "empty", text: "Nothing is waiting for review." }),
      );
      return;
    }
    const rows = items.map((item) => {
      const name = item.package;
      const direct = (status, label) =>
        el("button", {
          type: "button",
          text: label,
          "aria-label": label + " " + name,
          "data-action": status,
          // No reason: a rule's reason is the operator's own words, never the requester's
          // rationale copied unseen (issue 34); the "…" buttons open the form to write one.
          onclick: (event) => propose({ name, status }, event.currentTarget, $("pending-result")),
        });
      const viaForm = (status, label) =>
        el("button", {
          type: "button",
          class: status === "banned" || status === "deprecated" ? "danger" : "secondary",
          text: label,
          "aria-label": label + " " + name,
          "data-action": status,
          onclick: () => fillForm({ name, status }, item.rationale || ""),
        });
      return el(
        "tr",
        { "data-package": name },
        el(
          "td",
          {},
          el(
            "a",
            { href: "/dashboard/package/" + encodeURIComponent(name) },
            el("code", { text: name }),
          ),
        ),
        el("td", {}, badge(item.reason)),
        el("td", { class: "num", text: item.count }),
        el("td", { text: (item.projects || []).join(", ") }),
        el("td", {}, el("time", { datetime: item.last_seen, text: formatTime(item.last_seen) })),
        el("td", { text: item.rationale || "" }),
        el(
          "td",
          {},
          el(
            "div",
            { class: "actions" },
            direct("approved", "Approve"),
            direct("preferred", "Prefer"),
            viaForm("deprecated", "Deprecate…"),
            viaForm("banned", "Ban…"),
            viaForm("version-constrained", "Constrain…"),
          ),
        ),
      );
    });
    const headers = [
      "Package",
      "Signal",
      "Count",
      "Projects",
      "Last seen",
      "Rationale",
      "Classify",
    ];
    // Without any rationale the column only takes room.
    if (!items.some((item) => item.rationale)) {
      headers.splice(5, 1);
      for (const row of rows) row.children[5].remove();
    }
    $("pending-body").replaceChildren(table(headers, rows, "pending-table", "Pending review"));
  }

  // ---- proposals ----

  // `rationale`, the requester's words, is shown as a hint only: the operator types the reason.
  function fillForm(rule, rationale = "") {
    $("rule-name").value = rule.name || "";
    $("rule-status").value = STATUSES.includes(rule.status) ? rule.status : "approved";
    $("rule-reason").value = rule.reason || "";
    $("rule-reason").placeholder = rationale
      ? "your reason (the requester said: " + rationale.slice(0, 120) + ")"
      : "";
    $("rule-replacement").value = rule.replacement || "";
    $("rule-min").value = rule.min_version || "";
    $("rule-max").value = rule.max_version || "";
    $("propose").scrollIntoView({ behavior: "smooth", block: "start" });
    const focus = rule.status === "deprecated"
      ? "rule-replacement"
      : rule.status === "version-constrained"
      ? "rule-min"
      : "rule-reason";
    $(focus).focus({ preventScroll: true });
  }

  function ruleFromForm() {
    const rule = { name: $("rule-name").value.trim(), status: $("rule-status").value };
    for (
      const [field, id] of [["reason", "rule-reason"], ["replacement", "rule-replacement"], [
        "min_version",
        "rule-min",
      ], ["max_version", "rule-max"]]
    ) {
      const value = $(id).value.trim();
      if (value) rule[field] = value;
    }
    return rule;
  }

  // Proposes a rule; the outcome is shown in `target`, next to the control that asked.
  async function propose(rule, button, target) {
    target = target || $("proposal-result");
    if (button) button.disabled = true;
    notice(
      target,
      "info",
      "Proposing ",
      el("code", { text: rule.name }),
      " as " + rule.status + "…",
    );
    try {
      const data = await api("/registry/proposals", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rule, context: { source: "operator" } }),
      });
      await showResult(rule, data.result || {}, target);
    } catch (error) {
      notice(
        target,
        "error",
        "The proposal was rejected: " + scrubPaths(error.message),
        error.errors && error.errors.length ? errorList(error.errors) : "",
      );
    } finally {
      if (button && button.isConnected) button.disabled = false;
      target.scrollIntoView({ behavior: "smooth", block: "nearest" });
    }
  }

  async function showResult(rule, result, target) {
    const status = result.status || "unknown";
    const head = [badge(status), " ", el("code", { text: rule.name }), " → " + rule.status + ". "];
    const detail = result.detail && status !== "applied"
      ? el("div", { class: "muted", text: scrubPaths(result.detail) })
      : "";
    if (status === "applied") {
      state.proposed.delete(rule.name);
      const before = state.registry ? state.registry.version : null;
      await Promise.all([loadRegistry(), loadPending()]);
      const after = state.registry ? state.registry.version : "unknown";
      notice(
        target,
        "ok",
        ...head,
        "The rule is live: evaluations see it now. Registry version ",
        el("code", { "data-testid": "new-registry-version", text: after }),
        before && before !== after
          ? el("span", { class: "muted", text: " (was " + before + ")" })
          : "",
        before === after ? " (unchanged: the registry already had this rule)" : "",
        ".",
      );
    } else if (status === "opened" || status === "amended") {
      rememberProposed(rule);
      const link = result.url
        ? el("a", { href: result.url, rel: "noopener", text: result.url })
        : "";
      notice(
        target,
        "warn",
        ...head,
        "Pull request " + status + " ",
        link,
        ". The rule goes live after the merge; until then the YAML export below includes it.",
        detail,
      );
    } else if (status === "logged") {
      rememberProposed(rule);
      notice(
        target,
        "warn",
        ...head,
        "The rule was only logged; nothing changed. Download the YAML export below with this rule and commit it.",
        detail,
      );
    } else if (status === "failed") {
      notice(
        target,
        "error",
        ...head,
        "The proposer failed: " + scrubPaths(result.detail || "no detail"),
      );
    } else {
      notice(target, "info", ...head, scrubPaths(result.detail || ""));
    }
  }

  function rememberProposed(rule) {
    state.proposed.set(rule.name, rule);
    const params = [...state.proposed.values()].map((r) =>
      "rule=" + encodeURIComponent(JSON.stringify(r))
    );
    const link = $("export-with-proposals");
    link.href = "/dashboard/registry/export.yaml?" + params.join("&");
    link.textContent = "Download with " + state.proposed.size + " proposed rule" +
      (state.proposed.size === 1 ? "" : "s");
    $("export-proposals").hidden = false;
  }

  // ---- YAML import ----

  function sameRule(a, b) {
    const keys = ["status", "reason", "replacement", "min_version", "max_version"];
    return keys.every((k) => (a[k] || "") === (b[k] || ""));
  }

  async function importYaml(event) {
    event.preventDefault();
    const target = $("import-result");
    const text = $("import-text").value;
    if (!text.trim()) {
      notice(target, "error", "Paste a registry document or choose a YAML file first.");
      return;
    }
    notice(target, "info", "Validating…");
    let data;
    try {
      data = await api("/registry/parse-yaml", {
        method: "POST",
        headers: { "content-type": "text/yaml" },
        body: text,
      });
    } catch (error) {
      notice(
        target,
        "error",
        el("strong", { text: "The document is invalid. " }),
        error.errors && error.errors.length ? "" : scrubPaths(error.message),
        error.errors && error.errors.length ? errorList(error.errors) : "",
      );
      return;
    }
    const imported = data.registry;
    const live = new Map(
      ((state.registry && state.registry.packages) || []).map((r) => [r.name, r]),
    );
    const names = new Set(imported.packages.map((r) => r.name));
    const added = imported.packages.filter((r) => !live.has(r.name));
    const changed = imported.packages.filter((r) =>
      live.has(r.name) && !sameRule(r, live.get(r.name))
    );
    const removed = [...live.keys()].filter((name) => !names.has(name));
    state.importedRules = added.concat(changed);
    const list = (title, rules) =>
      el(
        "div",
        {},
        el("h3", { text: title + " (" + rules.length + ")" }),
        rules.length
          ? el(
            "ul",
            {},
            rules.map((r) =>
              el(
                "li",
                {},
                el("code", { text: r.name || r }),
                r.status ? " " : "",
                r.status ? badge(r.status) : "",
              )
            ),
          )
          : el("p", { class: "empty", text: "none" }),
      );
    const policiesDiffer = state.registry &&
      JSON.stringify(imported.policies) !== JSON.stringify(state.registry.policies);
    const exceptionsDiffer = state.registry &&
      JSON.stringify(imported.exceptions || []) !==
        JSON.stringify(state.registry.exceptions || []);
    notice(
      target,
      "ok",
      el("strong", { text: "Valid registry document. " }),
      "Version " + imported.version + ", " + imported.packages.length + " packages.",
      el(
        "div",
        { class: "diff", "data-testid": "import-diff" },
        list("Added", added),
        list("Changed", changed),
      ),
      removed.length
        ? el(
          "details",
          {},
          el("summary", {
            text: removed.length + " live rule(s) not in the document (removals are not proposed)",
          }),
          el("p", { class: "muted", text: removed.join(", ") }),
        )
        : "",
      policiesDiffer
        ? el("p", {
          text:
            "The policies differ from the live ones; policy changes are applied by committing the YAML, not by proposals.",
        })
        : "",
      exceptionsDiffer
        ? el("p", {
          "data-testid": "import-exceptions",
          text: "The document has " + (imported.exceptions || []).length +
            " exception(s), the live registry " + ((state.registry.exceptions || []).length) +
            "; exceptions are applied by committing the YAML, not by proposals.",
        })
        : "",
      state.importedRules.length
        ? el(
          "div",
          { class: "row" },
          el("button", {
            type: "button",
            id: "import-propose",
            text: "Propose the " + state.importedRules.length + " added or changed rule" +
              (state.importedRules.length === 1 ? "" : "s"),
            onclick: proposeImported,
          }),
        )
        : "",
    );
  }

  async function proposeImported(event) {
    const button = event.currentTarget;
    button.disabled = true;
    for (const rule of state.importedRules) {
      const clean = { name: rule.name, status: rule.status };
      for (const k of ["reason", "replacement", "min_version", "max_version"]) {
        if (rule[k]) clean[k] = rule[k];
      }
      await propose(clean, null, $("import-propose-result"));
    }
    state.importedRules = [];
  }

  async function readFile() {
    const file = $("import-file").files[0];
    if (!file) return;
    if (file.size > 1024 * 1024) {
      notice($("import-result"), "error", "The file is larger than 1 MiB.");
      return;
    }
    $("import-text").value = await file.text();
    $("import-form").requestSubmit();
  }

  // ---- wiring ----

  document.addEventListener("DOMContentLoaded", () => {
    $("registry-filter").addEventListener("input", renderRegistry);
    $("pending-refresh").addEventListener("click", loadPending);
    $("pending-days").addEventListener("change", loadPending);
    $("rule-form").addEventListener("submit", (event) => {
      event.preventDefault();
      propose(ruleFromForm(), event.submitter || null);
    });
    $("import-form").addEventListener("submit", importYaml);
    $("import-file").addEventListener("change", readFile);
    document.body.dataset.ready = "loading";
    Promise.all([loadHealth(), loadRegistry(), loadPending()]).finally(() => {
      // `?package=name` (from a package page) opens the form for that package.
      const wanted = new URLSearchParams(location.search).get("package");
      if (wanted) {
        const live = state.registry &&
          state.registry.packages.find((rule) => rule.name === wanted.toLowerCase());
        fillForm(live || { name: wanted, status: "approved" });
      }
      document.body.dataset.ready = "true";
    });
  });
})();
