// policyd registry workshop, the pending queue. Plain browser JavaScript loaded in
// order by the workshop page (workshop_core.js first, workshop.js last); the
// parts share one namespace, globalThis.policydWorkshop, and put every text
// in through textContent, never innerHTML.
"use strict";

(function () {
  const W = globalThis.policydWorkshop;
  const { $, el, badge, api, formatTime, table } = W;

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
          onclick: (event) => W.propose({ name, status }, event.currentTarget, $("pending-result")),
        });
      const viaForm = (status, label) =>
        el("button", {
          type: "button",
          class: status === "banned" || status === "deprecated" ? "danger" : "secondary",
          text: label,
          "aria-label": label + " " + name,
          "data-action": status,
          onclick: () => W.fillForm({ name, status }, item.rationale || ""),
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

  W.loadPending = loadPending;
  W.renderPending = renderPending;
})();
