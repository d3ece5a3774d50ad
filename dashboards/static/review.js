// The review pages' actions (issue #31): Approve, Reject (with a reason) and
// Dismiss on /dashboard/requests, Revert on /dashboard/history. Plain browser
// JavaScript talking to the JSON API; text goes in with textContent only.
(() => {
  "use strict";
  const API = "/api/v1";

  async function post(path, body) {
    const response = await fetch(API + path, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      const detail = (data && data.detail) || response.status + " " + response.statusText;
      throw new Error(detail);
    }
    return data;
  }

  function say(box, text, kind) {
    const out = box.querySelector(".action-result");
    if (!out) return;
    out.textContent = text;
    out.className = "action-result " + (kind || "");
  }

  function busy(box, on) {
    for (const button of box.querySelectorAll("button")) button.disabled = on;
  }

  const reloadSoon = () => setTimeout(() => location.reload(), 700);

  function describe(result) {
    const words = {
      applied: "Applied",
      opened: "Pull request opened",
      amended: "Pull request updated",
      logged: "Only logged (nothing changed)",
      failed: "The proposer failed",
    };
    return (words[result.status] || result.status) + ": " +
      String(result.detail || "").replace(/(^|\s)\/\S+/g, "$1the registry file");
  }

  async function approve(box) {
    const name = box.dataset.package;
    const rationale = box.dataset.rationale || "";
    const rule = { name, status: "approved" };
    if (rationale) rule.reason = rationale.slice(0, 500);
    const body = await post("/registry/proposals", {
      rule,
      context: { source: "operator", project: box.dataset.project, rationale },
    });
    say(box, describe(body.result), body.result.status === "failed" ? "error" : "ok");
    if (body.result.status !== "failed") reloadSoon();
  }

  function reasonForm(box) {
    let form = box.querySelector("form.reject-form");
    if (form) return form;
    form = document.createElement("form");
    form.className = "reject-form";
    const label = document.createElement("label");
    label.textContent = "Reason (the requester reads it)";
    const input = document.createElement("textarea");
    input.name = "reason";
    input.setAttribute("aria-required", "true");
    input.maxLength = 2000;
    input.rows = 2;
    label.append(input);
    const submit = document.createElement("button");
    submit.type = "submit";
    submit.textContent = "Reject request";
    form.append(label, submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const reason = input.value.trim();
      if (!reason) {
        say(box, "A reason is required.", "error");
        input.focus();
        return;
      }
      run(box, async () => {
        await post("/approval-requests/" + box.dataset.request + "/reject", { reason });
        say(box, "Rejected.", "ok");
        reloadSoon();
      });
    });
    box.insertBefore(form, box.querySelector(".action-result"));
    return form;
  }

  async function run(box, task) {
    busy(box, true);
    try {
      await task();
    } catch (error) {
      say(box, String(error.message || error), "error");
    } finally {
      busy(box, false);
    }
  }

  for (const box of document.querySelectorAll(".review-actions")) {
    for (const button of box.querySelectorAll("button[data-action]")) {
      button.hidden = false;
      button.addEventListener("click", () => {
        const action = button.dataset.action;
        if (action === "approve") run(box, () => approve(box));
        if (action === "reject") reasonForm(box).querySelector("textarea").focus();
        if (action === "dismiss") {
          run(box, async () => {
            await post("/approval-requests/" + box.dataset.request + "/dismiss", {});
            say(box, "Dismissed.", "ok");
            reloadSoon();
          });
        }
      });
    }
  }

  const bulk = document.querySelector(".bulk-actions");
  if (bulk) {
    bulk.hidden = false;
    for (const button of bulk.querySelectorAll("button[data-bulk]")) {
      button.addEventListener("click", () => {
        const ids = [...document.querySelectorAll("input.bulk-select:checked")].map((i) => i.value);
        const reason = bulk.querySelector(".bulk-reason").value.trim();
        const action = button.dataset.bulk;
        if (!ids.length) return say(bulk, "Select requests first.", "error");
        if (action === "reject" && !reason) return say(bulk, "A reason is required.", "error");
        run(bulk, async () => {
          let done = 0;
          const failures = [];
          for (const id of ids) {
            try {
              await post("/approval-requests/" + id + "/" + action, { reason });
              done++;
            } catch (error) {
              failures.push("#" + id + ": " + error.message);
            }
          }
          say(
            bulk,
            done + " of " + ids.length + " done" +
              (failures.length ? "; " + failures.join("; ") : "."),
            failures.length ? "error" : "ok",
          );
          if (done) reloadSoon();
        });
      });
    }
  }

  for (const box of document.querySelectorAll(".revert-action")) {
    const button = box.querySelector("button[data-action=revert]");
    button.hidden = false;
    button.addEventListener("click", () => {
      if (!box.dataset.confirming) {
        box.dataset.confirming = "1";
        button.textContent = "Confirm revert of " + box.dataset.package;
        return;
      }
      run(box, async () => {
        const body = await post("/registry/changes/" + box.dataset.change + "/revert");
        say(box, describe(body.result), body.result.status === "failed" ? "error" : "ok");
        if (body.result.status !== "failed") reloadSoon();
      });
    });
  }
})();
