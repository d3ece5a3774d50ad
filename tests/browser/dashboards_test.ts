/**
 * Browser tests of the welcome and report pages against a real server:
 * each page shows the data the API holds, filters pass through, and no
 * request leaves loopback.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchBrowser, openRecordedPage } from "../helpers/browser.ts";
import { screenshotDir, seedAudit, startDashboardServer } from "./_seed.ts";

/** Asserts that `text` contains `part`, showing the text when not. */
function includes(text: string, part: string) {
  assert.ok(text.includes(part), `expected ${JSON.stringify(part)} in:\n${text}`);
}

const options = { sanitizeOps: false, sanitizeResources: false };

Deno.test("dashboards render live data and stay on loopback", options, async (t) => {
  const server = await startDashboardServer();
  let browser: Browser | undefined;
  const shots = await screenshotDir();
  try {
    browser = await launchBrowser();
    await seedAudit(server);
    const { page, recorder, context } = await openRecordedPage(browser);
    const text = async (selector: string) => (await page.locator(selector).innerText()).trim();

    await t.step("the welcome page shows the live registry version and package count", async () => {
      const health = await (await fetch(`${server.url}/api/v1/health`)).json();
      await page.goto(`${server.url}/`);
      assert.deepEqual(await text("[data-testid=registry-version]"), health.registry_version);
      assert.deepEqual(await text("[data-testid=package-count]"), String(health.package_count));
      includes(await text("main"), `curl '${server.url}/api/v1/evaluate?package=requests'`);
      includes(await text("main"), "policy check requests");
      const nav = await page.locator("nav[aria-label=Dashboards] a").allInnerTexts();
      assert.deepEqual(nav, ["Overview", "Security", "Legal", "Agents", "Registry workshop"]);
      assert.deepEqual(await page.locator("a[aria-current=page]").innerText(), "Overview");
      await page.screenshot({ path: join(shots, "welcome.png"), fullPage: true });
    });

    await t.step(
      "the security page shows CVE denials, severities, hot packages and alerts",
      async () => {
        await page.goto(`${server.url}/dashboard/security`);
        assert.deepEqual(await text("[data-testid=total-denials]"), "2");
        const severities = await text("ul[aria-label='Denials per severity']");
        assert.ok(/critical\s+1/.test(severities) && /high\s+1/.test(severities), severities);
        includes(await text("[data-testid=top-packages]"), "vulnlib");
        includes(await text("[data-testid=top-cves]"), "CVE-2024-0001");
        includes(await text("[data-testid=hot-packages]"), "requests");
        includes(await text("[data-testid=recent-alerts]"), "jinja2");
        includes(await text("[data-testid=recent-denials]"), "CVE-2023-32681");
        await page.screenshot({ path: join(shots, "security.png"), fullPage: true });
      },
    );

    await t.step(
      "the legal page shows license denials, the license mix and unknown licenses",
      async () => {
        await page.goto(`${server.url}/dashboard/legal`);
        assert.deepEqual(await text("[data-testid=total-denials]"), "1");
        includes(await text("[data-testid=license-breakdown]"), "GPL-3.0-only");
        includes(await text("[data-testid=unknown-license]"), "UNKNOWN");
        includes(await text("[data-testid=recent-denials]"), "gpllib");
        await page.screenshot({ path: join(shots, "legal.png"), fullPage: true });
      },
    );

    await t.step("the agents page counts evaluations per agent", async () => {
      await page.goto(`${server.url}/dashboard/agents`);
      const rows = await page.locator("[data-testid=agents] tbody tr").allInnerTexts();
      const claude = rows.find((r) => r.startsWith("claude-code"));
      if (!claude) throw new Error(`no claude-code row in:\n${rows.join("\n")}`);
      assert.deepEqual(claude.split("\t").map((s) => s.trim()).slice(0, 6), [
        "claude-code",
        "1.0",
        "2",
        "0",
        "0",
        "2",
      ]);
      assert.ok(rows.some((r) => r.startsWith("(unknown agent)")), rows.join("\n"));
      assert.deepEqual(await text("[data-testid=total-evaluations]"), "6");
      await page.screenshot({ path: join(shots, "agents.png"), fullPage: true });
    });

    await t.step("days and project pass through to the report and its JSON link", async () => {
      await page.goto(`${server.url}/dashboard/agents`);
      await page.selectOption("#days", "7");
      await page.fill("#project", "api");
      await Promise.all([
        page.waitForURL(/project=api/),
        page.click("form.filters button[type=submit]"),
      ]);
      assert.deepEqual(new URL(page.url()).searchParams.get("days"), "7");
      const rows = await page.locator("[data-testid=agents] tbody tr").allInnerTexts();
      assert.ok(rows.some((r) => r.startsWith("cursor")), rows.join("\n"));
      assert.ok(!rows.some((r) => r.startsWith("claude-code")), rows.join("\n"));
      const json = await page.locator("a", { hasText: "View JSON" }).getAttribute("href");
      assert.deepEqual(json, "/api/v1/reports/agents?days=7&project=api");
      const api = await (await fetch(`${server.url}${json}`)).json();
      assert.deepEqual(api.agents.map((a: { agent_model: string }) => a.agent_model).sort(), [
        "(unknown agent)",
        "cursor",
      ]);
    });

    await t.step("an invalid days value answers 400 with a readable page", async () => {
      const response = await page.goto(`${server.url}/dashboard/security?days=abc`);
      assert.deepEqual(response?.status(), 400);
      includes(await text("[role=alert]"), "days");
    });

    await t.step("no request left loopback and the pages raised no errors", () => {
      assert.ok(recorder.requests.length > 0);
      assert.deepEqual(recorder.offLoopback, []);
      const origin = new URL(server.url).origin;
      for (const url of recorder.requests) assert.ok(url.startsWith(origin), url);
      const errors = recorder.errors.filter((e) => !e.includes("status of 400"));
      assert.deepEqual(errors, []);
    });
    await context.close();
    console.log(`screenshots: ${shots}`);
  } finally {
    await browser?.close();
    await server.close();
  }
});
