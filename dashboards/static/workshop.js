// policyd registry workshop, the wiring: loaded last, after workshop_core.js and
// the parts (registry, pending, propose, import), whose functions it finds on
// globalThis.policydWorkshop.
"use strict";

(function () {
  const W = globalThis.policydWorkshop;
  const { $, state } = W;

  document.addEventListener("DOMContentLoaded", () => {
    $("registry-filter").addEventListener("input", W.renderRegistry);
    $("pending-refresh").addEventListener("click", W.loadPending);
    $("pending-days").addEventListener("change", W.loadPending);
    $("rule-form").addEventListener("submit", (event) => {
      event.preventDefault();
      W.propose(W.ruleFromForm(), event.submitter || null);
    });
    $("import-form").addEventListener("submit", W.importYaml);
    $("import-file").addEventListener("change", W.readFile);
    document.body.dataset.ready = "loading";
    Promise.all([W.loadHealth(), W.loadRegistry(), W.loadPending()]).finally(() => {
      // `?package=name` (from a package page) opens the form for that package.
      const wanted = new URLSearchParams(location.search).get("package");
      if (wanted) {
        const live = state.registry &&
          state.registry.packages.find((rule) => rule.name === wanted.toLowerCase());
        W.fillForm(live || { name: wanted, status: "approved" });
      }
      document.body.dataset.ready = "true";
    });
  });
})();
