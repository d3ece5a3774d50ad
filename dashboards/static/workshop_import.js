// policyd registry workshop, YAML import. Plain browser JavaScript loaded in
// order by the workshop page (workshop_core.js first, workshop.js last); the
// parts share one namespace, globalThis.policydWorkshop, and put every text
// in through textContent, never innerHTML.
"use strict";

(function () {
  const W = globalThis.policydWorkshop;
  const { $, el, badge, notice, api, state, scrubPaths, errorList } = W;

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
      await W.propose(clean, null, $("import-propose-result"));
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

  W.importYaml = importYaml;
  W.readFile = readFile;
})();
