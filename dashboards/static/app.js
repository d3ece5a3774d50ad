// policyd dashboards, every page: the collapsible menu on narrow screens and
// sortable tables. Plain browser JavaScript; pages work without it.
"use strict";

(function () {
  document.documentElement.classList.add("js");

  function setupMenu() {
    const button = document.querySelector(".menu-toggle");
    const menu = document.getElementById("side-menu");
    if (!button || !menu) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      document.body.classList.toggle("menu-open", open);
    });
  }

  // The value a cell sorts by: data-sort when given, else its text; numbers as numbers.
  function sortKey(cell) {
    const raw = (cell && (cell.dataset.sort ?? cell.textContent) || "").trim();
    const number = Number(raw.replace(/[,%]/g, ""));
    return raw !== "" && raw !== "—" && !Number.isNaN(number) ? number : raw.toLowerCase();
  }

  function compare(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (typeof a === "number") return -1;
    if (typeof b === "number") return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function makeSortable(table) {
    const headers = table.tHead ? [...table.tHead.rows[0].cells] : [];
    headers.forEach((th, index) => {
      const label = th.textContent.trim();
      if (!label) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = label;
      button.setAttribute("aria-label", "Sort by " + label);
      th.replaceChildren(button);
      th.setAttribute("aria-sort", "none");
      button.addEventListener("click", () => {
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        for (const other of headers) other.setAttribute("aria-sort", "none");
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const body = table.tBodies[0];
        const rows = [...body.rows];
        rows.sort((r1, r2) => {
          const order = compare(sortKey(r1.cells[index]), sortKey(r2.cells[index]));
          return ascending ? order : -order;
        });
        body.append(...rows);
      });
    });
  }

  /** Exposed for the workshop, whose tables are built after load. */
  globalThis.policydSortable = makeSortable;

  document.addEventListener("DOMContentLoaded", () => {
    setupMenu();
    for (const table of document.querySelectorAll("table.sortable")) makeSortable(table);
  });
})();
