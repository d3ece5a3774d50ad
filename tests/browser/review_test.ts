/**
 * Browser test of the review lifecycle (issue #31) against a real server with
 * the local_file proposer: agents file requests; an operator rejects one with
 * a reason (it appears in the registry history), approves another, reverts
 * the approval from the history, and the registry is back at its earlier
 * version. Filters, the phone layout and screenshots at 1440 and 390 px.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { readExampleRegistry } from "../../src/registry/example.ts";
import { launchBrowser, openRecordedPage } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { fakeLicenses, fakeVulnerabilities, screenshotDir } from "./_seed.ts";

const options = { sanitizeOps: false, sanitizeResources: false };

function includes(text: string, part: string) {
  assert.ok(text.includes(part), `expected ${JSON.stringify(part)} in:\n${text}`);
}

async function fileRequest(
  server: TestServer,
  pkg: string,
  rationale: string,
  headers: Record<string, string>,
): Promise<number> {
  const response = await fetch(`${server.url}/api/v1/approval-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ package: pkg, rationale }),
  });
  assert.equal(response.status, 202);
  return (await response.json()).id;
}

async function registryVersion(server: TestServer): Promise<string> {
  return (await (await fetch(`${server.url}/api/v1/registry`)).json()).version;
}

async function rowText(page: Page, id: number): Promise<string> {
  return (await page.locator(`tr[data-request-row="${id}"]`).innerText()).trim();
}

Deno.test("the review lifecycle in Chromium: reject, approve, revert", options, async (t) => {
  const example = await readExampleRegistry();
  // No authored `version:`: the registry version is the content hash, so it shows every change.
  const server = await startTestServer({
    registryYaml: example.replace(/^version: .*\n/m, ""),
    env: {
      REGISTRY_PROPOSER: "local_file",
      OSV_API_URL: "http://127.0.0.1:9",
      PYPI_URL: "http://127.0.0.1:9",
    },
    build: { lookups: { vulnerabilities: fakeVulnerabilities, licenses: fakeLicenses } },
  });
  let browser: Browser | undefined;
  const shots = await screenshotDir("review");
  try {
    const leftpad = await fileRequest(server, "LeftPad", "Pads invoice numbers.", {
      "x-policy-project": "web",
      "x-policy-agent-model": "claude-code",
      "x-policy-agent-version": "1.0",
      "x-policy-source": "hook",
    });
    const isort = await fileRequest(server, "isort", "Sort imports in CI.", {
      "x-policy-project": "api",
      "x-policy-agent-model": "cursor-agent",
    });
    const person = await fileRequest(server, "tinylib", "I need it for a script.", {
      "x-policy-project": "api",
    });
    await server.running.built.deps.approvals.idle();
    const earlier = await registryVersion(server);

    browser = await launchBrowser();
    const { page, recorder, context } = await openRecordedPage(browser);
    await page.setViewportSize({ width: 1440, height: 900 });

    await t.step(
      "the requests page lists every request with agent, source and rationale",
      async () => {
        await page.goto(`${server.url}/dashboard/requests`);
        assert.equal(await page.locator("table[data-testid=requests] tbody tr").count(), 3);
        const row = await rowText(page, leftpad);
        for (const part of ["leftpad", "web", "claude-code 1.0", "hook", "Pads invoice numbers."]) {
          includes(row, part);
        }
        includes(row, "Pending review");
        includes(await rowText(page, person), "a person (no agent header)");
        assert.equal(
          (await page.locator("[data-testid=count-PENDING_REVIEW]").innerText()).trim(),
          "3",
        );
        await page.screenshot({ path: join(shots, "requests-1440.png"), fullPage: true });
        // At 1280 px the table fits its card: nothing to scroll sideways.
        await page.setViewportSize({ width: 1280, height: 900 });
        const overflow = Number(
          await page.evaluate(
            "(() => { const w = document.querySelector('[data-testid=requests]').closest('.table-wrap'); return w.scrollWidth - w.clientWidth; })()",
          ),
        );
        assert.ok(overflow <= 0, `the requests table is ${overflow}px wider than its card`);
        await page.setViewportSize({ width: 1440, height: 900 });
      },
    );

    await t.step(
      "filters: agent model by prefix, package normalised, unknown project",
      async () => {
        await page.goto(`${server.url}/dashboard/requests?agent_model=claude`);
        assert.equal(await page.locator("table[data-testid=requests] tbody tr").count(), 1);
        await page.goto(`${server.url}/dashboard/requests?package=LEFTPAD`);
        assert.equal(await page.locator(`tr[data-request-row="${leftpad}"]`).count(), 1);
        await page.goto(`${server.url}/dashboard/requests?project=wbe`);
        const notice = await page.locator("[data-testid=unknown-project]").innerText();
        includes(notice, "wbe");
        includes(notice, "api, web");
      },
    );

    await t.step("Reject asks for a reason and the decision appears in the history", async () => {
      await page.goto(`${server.url}/dashboard/requests`);
      const actions = page.locator(`.review-actions[data-request="${leftpad}"]`);
      await actions.locator("button[data-action=reject]").click();
      await actions.locator("button[type=submit]").click();
      includes(await actions.locator(".action-result").innerText(), "A reason is required");
      await actions.locator("textarea").fill("Use str.rjust instead.");
      await Promise.all([
        page.waitForURL(`${server.url}/dashboard/requests`, { waitUntil: "load" }),
        page.waitForEvent("load"),
        actions.locator("button[type=submit]").click(),
      ]);
      const row = await rowText(page, leftpad);
      includes(row, "Rejected");
      includes(row, "Use str.rjust instead.");
      await page.goto(`${server.url}/dashboard/history`);
      const history = await page.locator("table[data-testid=history]").innerText();
      includes(history, "Request rejected");
      includes(history, `Request #${leftpad}: “Use str.rjust instead.”`);
    });

    await t.step("Approve applies the rule; Revert brings the registry back", async () => {
      await page.goto(`${server.url}/dashboard/requests`);
      await Promise.all([
        page.waitForEvent("load"),
        page.locator(`.review-actions[data-request="${isort}"] button[data-action=approve]`)
          .click(),
      ]);
      includes(await rowText(page, isort), "Approved");
      const later = await registryVersion(server);
      assert.notEqual(later, earlier);
      assert.equal(
        (await page.locator("[data-testid=side-registry-version]").innerText()).trim(),
        later,
      );

      await page.goto(`${server.url}/dashboard/history?package=isort`);
      const applied = page.locator("tr[data-kind=applied]");
      const appliedId = await applied.getAttribute("data-change");
      includes(await applied.innerText(), "not in the registry");
      includes(await applied.innerText(), "Approved");
      await page.screenshot({ path: join(shots, "history-1440.png"), fullPage: true });
      const revert = applied.locator("button[data-action=revert]");
      await revert.click();
      includes(await revert.innerText(), "Confirm revert of isort");
      await Promise.all([page.waitForEvent("load"), revert.click()]);
      assert.equal(await registryVersion(server), earlier);
      const top = page.locator("table[data-testid=history] tbody tr").first();
      includes(await top.innerText(), "reverts change #");
      includes(await top.innerText(), "removed from the registry");
      // The request stays approved (it was), and says that its rule is gone since.
      await page.goto(`${server.url}/dashboard/requests`);
      includes(await rowText(page, isort), "The rule changed since: no longer in the registry");
      await page.goto(`${server.url}/dashboard/history?package=isort`);
      // The reverted change is not revertible any more (its rule is gone); the revert itself is.
      assert.equal(
        await page.locator(`tr[data-change="${appliedId}"] button[data-action=revert]`).count(),
        0,
      );
    });

    await t.step(
      "bulk: Reject selected needs a reason; Dismiss selected closes several",
      async () => {
        const first = await fileRequest(server, "dup-one", "Filed twice.", {
          "x-policy-project": "web",
        });
        const second = await fileRequest(server, "dup-two", "Filed twice.", {
          "x-policy-project": "web",
        });
        await server.running.built.deps.approvals.idle();
        await page.goto(`${server.url}/dashboard/requests?status=PENDING_REVIEW`);
        const bulk = page.locator("[data-testid=bulk-actions]");
        await page.check(`input.bulk-select[value="${first}"]`);
        await page.check(`input.bulk-select[value="${second}"]`);
        await bulk.locator("button[data-bulk=reject]").click();
        includes(await bulk.locator(".action-result").innerText(), "A reason is required");
        await bulk.locator(".bulk-reason").fill("duplicates of one another");
        await Promise.all([
          page.waitForEvent("load"),
          bulk.locator("button[data-bulk=dismiss]").click(),
        ]);
        for (const id of [first, second]) {
          const row = await (await fetch(`${server.url}/api/v1/approval-requests/${id}`)).json();
          assert.deepEqual([row.status, row.decision_reason], [
            "DISMISSED",
            "duplicates of one another",
          ]);
        }
      },
    );

    await t.step("on a phone the tables become cards without sideways scrolling", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const [path, name] of [["requests", "requests-390"], ["history", "history-390"]]) {
        await page.goto(`${server.url}/dashboard/${path}`);
        const width = Number(await page.evaluate("document.documentElement.scrollWidth"));
        assert.ok(width <= 390, `${path} is ${width}px wide`);
        await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
      }
      // Error pages start with their message, not with an empty bar.
      for (const [path, name] of [["/dashboard/nowhere", "404-390"], ["/?days=0", "400-390"]]) {
        await page.goto(`${server.url}${path}`);
        await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
        const heading = await page.locator("main h1").boundingBox();
        assert.ok(heading && heading.y < 160, `${path}: the heading starts at ${heading?.y}px`);
      }
    });

    await t.step("nothing left loopback and no script or CSP error occurred", () => {
      assert.deepEqual(recorder.offLoopback, []);
      // The 404 and 400 pages answer 404 and 400: the console reports those loads.
      assert.deepEqual(recorder.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
    });
    await context.close();
  } finally {
    await browser?.close();
    await server.close();
  }
});
