// policyd registry workshop, proposals and their results. Plain browser JavaScript loaded in
// order by the workshop page (workshop_core.js first, workshop.js last); the
// parts share one namespace, globalThis.policydWorkshop, and put every text
// in through textContent, never innerHTML.
"use strict";

(function () {
  const W = globalThis.policydWorkshop;
  const { $, el, badge, notice, api, state, scrubPaths, errorList, STATUSES } = W;

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
      const key = String(rule.name).toLowerCase().replace(/[-_.]+/g, "-");
      const previous = state.registry &&
        state.registry.packages.find((r) => r.name === key);
      const same = previous &&
        ["status", "reason", "replacement", "min_version", "max_version"].every((k) =>
          (previous[k] || "") === (rule[k] || "")
        );
      const before = state.registry ? state.registry.version : null;
      await Promise.all([W.loadRegistry(), W.loadPending()]);
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
        same
          ? " (unchanged: the registry already had this rule)"
          : before === after
          ? " (the registry's authored version label is kept; bump it when you review the file)"
          : "",
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

  W.fillForm = fillForm;
  W.ruleFromForm = ruleFromForm;
  W.propose = propose;
  W.showResult = showResult;
  W.rememberProposed = rememberProposed;
})();
