// policyd registry workshop, shared helpers: reads and writes through the JSON
// API only. Plain browser JavaScript, no dependencies; every text goes in
// through textContent, never innerHTML. The workshop's parts (workshop_*.js,
// loaded in order, workshop.js last) share the namespace globalThis.policydWorkshop.
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

  // Human labels of the enumerations the workshop shows; the raw value stays in the tooltip.
  const LABELS = {
    preferred: "Preferred",
    approved: "Approved",
    "version-constrained": "Version-constrained",
    deprecated: "Deprecated",
    banned: "Banned",
    requested: "Requested",
    "provisional-no-rationale": "Provisional, not requested",
    "repeatedly-denied": "Denied 3+ times",
    "pre-screened": "Checked before install",
    applied: "Applied",
    opened: "Pull request opened",
    amended: "Pull request updated",
    logged: "Only logged",
    failed: "Failed",
  };

  function badge(kind) {
    return el("span", { class: "badge " + kind, text: LABELS[kind] || kind, title: kind });
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

  globalThis.policydWorkshop = {
    API,
    STATUSES,
    LOCAL_PROPOSERS,
    LABELS,
    state,
    $,
    el,
    badge,
    notice,
    scrubPaths,
    errorList,
    api,
    formatTime,
    table,
  };
})();
