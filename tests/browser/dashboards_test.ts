/**
 * Browser tests of the welcome and report pages against a real server:
 * each page shows the data the API holds, filters pass through, and no
 * request leaves loopback.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchBrowser, openRecordedPage } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  screenshotDir,
  seedAudit,
  seedHistory,
  startDashboardServer,
  type TestClock,
} from "./_seed.ts";

/** Asserts that `text` contains `part`, showing the text when not. */
function includes(text: string, part: string) {
  assert.ok(text.includes(part), `expected ${JSON.stringify(part)} in:\n${text}`);
}

const options = { sanitizeOps: false, sanitizeResources: false };

Deno.test("dashboards render live data and stay on loopback", options, async (t) => {
  const server = await startDashboardServer();
  let browser: Browser | undefined;
  const shots = await screenshotDir("dashboards");
  try {
    browser = await launchBrowser();
    await seedAudit(server);
    const { page, recorder, context } = await openRecordedPage(browser);
    const text = async (selector: string) => (await page.locator(selector).innerText()).trim();

    await t.step("the overview shows the activity, every category and the registry", async () => {
      const health = await (await fetch(`${server.url}/api/v1/health`)).json();
      await page.goto(`${server.url}/`);
      assert.deepEqual(await text("[data-testid=registry-version]"), health.registry_version);
      assert.deepEqual(await text("[data-testid=package-count]"), String(health.package_count));
      assert.deepEqual(await text("[data-testid=total-evaluations]"), "6");
      assert.deepEqual(await text("[data-testid=total-denied]"), "4");
      assert.deepEqual(await text("[data-testid=total-provisional]"), "2");
      includes(await text("[data-testid=top-denied-DENIAL_BANNED]"), "pycrypto");
      includes(await text("[data-testid=top-denied-DENIAL_CVE]"), "vulnlib");
      includes(await text("[data-testid=top-denied-DENIAL_LICENSE]"), "gpllib");
      includes(await text("#top-denied"), "No deprecated package was asked for in this window.");
      includes(await text("[data-testid=recent-decisions]"), "mysterylib");
      includes(await text("[data-testid=data-availability]"), "Vulnerability data (OSV)");
      includes(await text("main"), `curl '${server.url}/api/v1/evaluate?package=requests'`);
      includes(await text("main"), "policy check requests");
      const nav = await page.locator("nav[aria-label=Dashboards] a").allInnerTexts();
      assert.deepEqual(nav, [
        "Overview",
        "Audit log",
        "Security",
        "Legal",
        "Agents",
        "Approval requests",
        "Registry history",
        "Alerts",
        "Registry workshop",
      ]);
      // Every page says whether the upstreams answer, from what /health knows.
      const strip = await page.locator("[data-testid=status-strip]").innerText();
      includes(strip, "OSV (vulnerabilities)");
      includes(strip, "PyPI (licenses, releases)");
      assert.deepEqual(await page.locator("a[aria-current=page]").innerText(), "Overview");
      // The chart is an image with a text description, and a table of the same numbers.
      const chart = page.locator("#evaluations-chart svg[role=img]");
      includes(await chart.locator("desc").innerHTML(), "6 evaluations from");
      await page.click("#evaluations-chart summary");
      const totals = await page.locator("#evaluations-chart tbody tr td:last-child")
        .allInnerTexts();
      assert.deepEqual(totals.map(Number).reduce((a, b) => a + b, 0), 6);
      await page.screenshot({ path: join(shots, "overview.png"), fullPage: true });
    });

    await t.step("a package page shows its rule, replacement, projects and history", async () => {
      await page.goto(`${server.url}/dashboard/package/pycrypto`);
      includes(await text("[data-testid=package-rule]"), "Banned");
      assert.equal(await text("[data-testid=package-replacement]"), "cryptography");
      assert.equal(
        await page.locator("[data-testid=package-replacement] a").getAttribute("href"),
        "/dashboard/package/cryptography",
      );
      includes(await text("[data-testid=package-projects]"), "web");
      includes(await text("[data-testid=package-history]"), "Denied");
      assert.equal(
        await page.locator("[data-testid=propose-rule]").getAttribute("href"),
        "/dashboard/registry?package=pycrypto#propose",
      );
      await page.screenshot({ path: join(shots, "package-pycrypto.png"), fullPage: true });
      await page.goto(`${server.url}/dashboard/package/vulnlib`);
      assert.equal(
        await page.locator("[data-testid=package-cves] a").getAttribute("href"),
        "https://osv.dev/vulnerability/CVE-2024-0001",
      );
      includes(await text("[data-testid=package-license]"), "MIT");
      await page.screenshot({ path: join(shots, "package-vulnlib.png"), fullPage: true });
    });

    await t.step("the audit log filters, sorts and exports exactly the filtered rows", async () => {
      await page.goto(`${server.url}/dashboard/audit`);
      includes(await text("[data-testid=audit-summary]"), "of 7 matching");
      await page.selectOption("#f-verdict", "DENIED");
      await page.fill("#f-project", "api");
      await Promise.all([page.waitForURL(/verdict=DENIED/), page.click("form.filters button")]);
      includes(await text("[data-testid=audit-summary]"), "Rows 1–2 of 2 matching");
      const packages = async () =>
        (await page.locator("[data-testid=audit-rows] tbody tr td:nth-child(2)").allInnerTexts())
          .map((s) => s.trim());
      assert.deepEqual(await packages(), ["gpllib", "requests"]);
      await page.click("[data-testid=audit-rows] th button[aria-label='Sort by Package']");
      assert.deepEqual(await packages(), ["gpllib", "requests"]);
      await page.click("[data-testid=audit-rows] th button[aria-label='Sort by Package']");
      assert.deepEqual(await packages(), ["requests", "gpllib"]);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click("a:has-text('Export CSV')"),
      ]);
      const csv = (await Deno.readTextFile(await download.path())).trim().split("\n");
      assert.equal(csv.length, 3);
      assert.ok(csv.slice(1).every((line) => line.includes(",DENIED,") && line.includes(",api,")));
      const json = await (await fetch(
        `${server.url}/dashboard/audit/export.json?verdict=DENIED&project=api`,
      )).json();
      assert.deepEqual(json.items.map((r: { package: string }) => r.package).sort(), [
        "gpllib",
        "requests",
      ]);
      await page.screenshot({ path: join(shots, "audit.png"), fullPage: true });
      const overflow = Number(
        await page.evaluate(
          "(() => { const w = document.querySelector('[data-testid=audit-rows]').closest('.table-wrap'); return w.scrollWidth - w.clientWidth; })()",
        ),
      );
      assert.ok(overflow <= 0, `the audit table is ${overflow}px wider than its card at 1280 px`);
    });

    await t.step(
      "the security page shows CVE denials, severities, hot packages and alerts",
      async () => {
        await page.goto(`${server.url}/dashboard/security`);
        assert.deepEqual(await text("[data-testid=total-denials]"), "2");
        // Every evaluation had OSV data: no caveat; the scanner's state is said, not implied.
        assert.equal(await page.locator("[data-testid=total-denials-caveat]").count(), 0);
        includes(await text("#alerts"), "scanner");
        assert.deepEqual(await text("[data-testid=rule-denials]"), "1");
        includes(await text("[data-testid=top-denied-DENIAL_BANNED]"), "pycrypto");
        const categories = await text("ul[aria-label='Denials per category']");
        for (const label of ["Banned", "Deprecated", "Version constraint", "CVE", "License"]) {
          includes(categories, label);
        }
        const severities = await text("ul[aria-label='Denials per severity']");
        assert.ok(/critical\s+1/.test(severities) && /high\s+1/.test(severities), severities);
        includes(await text("[data-testid=top-packages]"), "vulnlib");
        includes(await text("[data-testid=top-cves]"), "CVE-2024-0001");
        includes(await text("[data-testid=hot-packages]"), "requests");
        assert.equal(
          await page.locator("[data-testid=top-cves] a").first().getAttribute("href"),
          "https://osv.dev/vulnerability/CVE-2023-32681",
        );
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
        includes(await text("[data-testid=top-denied-DENIAL_LICENSE]"), "gpllib");
        assert.ok(!(await text("main")).includes("Every evaluated package"));
        await page.screenshot({ path: join(shots, "legal.png"), fullPage: true });
      },
    );

    await t.step(
      "audit filters normalise names, match agent models by prefix, know projects",
      async () => {
        await page.goto(`${server.url}/dashboard/audit?package=PyCrypto`);
        includes(await text("[data-testid=audit-summary]"), "of 1 matching");
        await page.goto(`${server.url}/dashboard/audit?agent_model=Claude`);
        includes(await text("[data-testid=audit-summary]"), "of 2 matching");
        const options = await page.locator("datalist#known-projects option").evaluateAll(
          (nodes) => nodes.map((n) => n.getAttribute("value")),
        );
        assert.deepEqual(options, ["api", "policyd", "web"]);
        await page.goto(`${server.url}/dashboard/audit?project=wbe`);
        const notice = await text("[data-testid=unknown-project]");
        includes(notice, "No project named wbe has recorded anything (did you mean web?)");
        await page.goto(`${server.url}/dashboard/security?project=ap`);
        includes(await text("[data-testid=unknown-project]"), "did you mean api");
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
      // People and scripts without agent headers are counted apart, not as an unknown agent.
      assert.ok(!rows.some((r) => r.startsWith("(unknown agent)")), rows.join("\n"));
      assert.deepEqual(await text("[data-testid=total-evaluations]"), "3");
      assert.deepEqual(await text("[data-testid=people-evaluations]"), "3");
      includes(await text("[data-testid=people]"), "3 evaluations without an agent model");
      includes(await text("#agent-trends"), "claude-code");
      includes(await text("[data-testid=weekly-rate-claude-code]"), "100%");
      // The drill-down opens the agent's decisions in the audit log.
      await Promise.all([
        page.waitForURL(/\/dashboard\/audit\?agent_model=claude-code/),
        page.click("[data-testid=agents] tr[data-agent=claude-code] a"),
      ]);
      includes(await text("[data-testid=audit-summary]"), "of 2 matching");
      await page.goBack();
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

    await t.step("an unknown dashboard path answers an HTML 404 page", async () => {
      const response = await page.goto(`${server.url}/dashboard/nowhere`);
      assert.deepEqual(response?.status(), 404);
      assert.equal(await page.title(), "Page not found · policyd");
      includes(await text("[role=alert]"), "/dashboard/nowhere");
      await page.screenshot({ path: join(shots, "not-found.png") });
      const icon = await page.request.get(`${server.url}/favicon.ico`);
      assert.equal(icon.status(), 200);
      assert.equal(icon.headers()["content-type"], "image/x-icon");
    });

    await t.step("every page at 1440 and 390 px: screenshots, no sideways scrolling", async () => {
      const pages = [
        ["/", "overview"],
        ["/dashboard/audit", "audit"],
        ["/dashboard/security", "security"],
        ["/dashboard/legal", "legal"],
        ["/dashboard/agents", "agents"],
        ["/dashboard/requests", "requests"],
        ["/dashboard/history", "history"],
        ["/dashboard/registry", "registry"],
        ["/dashboard/package/pycrypto", "package"],
        ["/dashboard/nowhere", "not-found"],
      ];
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [path, name] of pages) {
          await page.goto(`${server.url}${path}`);
          if (path === "/dashboard/registry") await page.waitForSelector("body[data-ready=true]");
          await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
          assert.equal(
            await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"),
            true,
            `${path} scrolls sideways at ${width} px`,
          );
          if (width === 1440 && path === "/") {
            const height = Number(await page.evaluate("document.documentElement.scrollHeight"));
            assert.ok(height < 4000, `the overview is ${height}px long`);
          }
        }
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("no request left loopback and the pages raised no errors", () => {
      assert.ok(recorder.requests.length > 0);
      assert.deepEqual(recorder.offLoopback, []);
      const origin = new URL(server.url).origin;
      for (const url of recorder.requests) assert.ok(url.startsWith(origin), url);
      const errors = recorder.errors.filter((e) => !/status of 40[04]/.test(e));
      assert.deepEqual(errors, []);
    });
    await context.close();
    console.log(`screenshots: ${shots}`);
  } finally {
    await browser?.close();
    await server.close();
  }
});

Deno.test(
  "two weeks of history: charts, pages of the audit log, a phone layout",
  options,
  async (t) => {
    const clock: TestClock = { now: new Date("2026-11-21T18:00:00.000Z") };
    const server = await startDashboardServer({}, clock);
    let browser: Browser | undefined;
    const shots = await screenshotDir("history");
    try {
      browser = await launchBrowser();
      const written = await seedHistory(server, clock);
      const { page, recorder, context } = await openRecordedPage(browser);
      const text = async (selector: string) => (await page.locator(selector).innerText()).trim();

      await t.step("the overview charts every day of the window", async () => {
        await page.goto(`${server.url}/?days=14`);
        assert.equal(await text("[data-testid=total-evaluations]"), String(written));
        const days = await page.locator("#evaluations-chart svg g rect").count();
        assert.ok(days >= 14, `${days} bars`);
        includes(await page.locator("#evaluations-chart desc").innerHTML(), "from 2026-11-08 to");
        await page.screenshot({ path: join(shots, "overview-history.png"), fullPage: true });
        // A 90-day window starts its charts where the data starts, not with 76 empty days.
        await page.goto(`${server.url}/?days=90`);
        includes(await page.locator("#evaluations-chart desc").innerHTML(), "from 2026-11-08 to");
        includes(await text("#evaluations-per-day"), "Recorded data starts on 2026-11-08");
      });

      await t.step("the audit log pages with its cursor", async () => {
        await page.goto(`${server.url}/dashboard/audit?limit=20`);
        includes(await text("[data-testid=audit-summary]"), `Rows 1–20 of ${written} matching`);
        const first = await page.locator("[data-testid=audit-rows] tbody tr").allInnerTexts();
        await Promise.all([page.waitForURL(/cursor=/), page.click("[data-testid=next-page]")]);
        includes(await text("[data-testid=audit-summary]"), `Rows 21–40 of ${written}`);
        const second = await page.locator("[data-testid=audit-rows] tbody tr").allInnerTexts();
        assert.equal(second.length, 20);
        assert.ok(second.every((row) => !first.includes(row)));
      });

      await t.step("the security and legal pages show every category", async () => {
        await page.goto(`${server.url}/dashboard/security?days=14`);
        includes(await text("[data-testid=top-denied-DENIAL_DEPRECATED]"), "nose");
        includes(await text("[data-testid=top-denied-DENIAL_VERSION_CONSTRAINT]"), "pyyaml");
        await page.screenshot({ path: join(shots, "security-history.png"), fullPage: true });
        await page.goto(`${server.url}/dashboard/legal?days=14`);
        await page.screenshot({ path: join(shots, "legal-history.png"), fullPage: true });
        await page.goto(`${server.url}/dashboard/agents?days=14`);
        await page.screenshot({ path: join(shots, "agents-history.png"), fullPage: true });
      });

      await t.step("on a phone the menu folds away and audit rows become cards", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${server.url}/`);
        const menu = page.locator("button.menu-toggle");
        assert.ok(await menu.isVisible());
        assert.ok(!(await page.locator("nav[aria-label=Dashboards]").isVisible()));
        await page.screenshot({ path: join(shots, "phone-overview.png") });
        // Charts keep a readable height (not a 60 px strip) and scroll inside their card.
        const chart = await page.locator("#evaluations-chart svg").boundingBox();
        assert.ok(chart && chart.height >= 150, JSON.stringify(chart));
        assert.equal(
          await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"),
          true,
          "the overview does not scroll sideways",
        );
        await page.locator("#evaluations-per-day").screenshot({
          path: join(shots, "phone-chart.png"),
        });
        await page.locator("#top-denied").screenshot({ path: join(shots, "phone-top-denied.png") });
        await menu.click();
        assert.equal(await menu.getAttribute("aria-expanded"), "true");
        assert.ok(await page.locator("nav[aria-label=Dashboards]").isVisible());
        await page.screenshot({ path: join(shots, "phone-menu.png") });
        await page.goto(`${server.url}/dashboard/audit?limit=5`);
        const row = page.locator("[data-testid=audit-rows] tbody tr").first();
        const box = await row.boundingBox();
        assert.ok(box && box.width <= 390, JSON.stringify(box));
        assert.equal(
          await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"),
          true,
          "the audit page does not scroll sideways",
        );
        await page.screenshot({ path: join(shots, "phone-audit.png"), fullPage: true });
        await page.goto(`${server.url}/dashboard/package/pycrypto`);
        await page.screenshot({ path: join(shots, "phone-package.png"), fullPage: true });
      });

      await t.step("no request left loopback and the pages raised no errors", () => {
        assert.deepEqual(recorder.offLoopback, []);
        assert.deepEqual(recorder.errors, []);
      });
      await context.close();
      console.log(`screenshots: ${shots}`);
    } finally {
      await browser?.close();
      await server.close();
    }
  },
);

Deno.test(
  "with upstream data unavailable the pages say so and claim no all-clear",
  options,
  async () => {
    // No upstream URLs: every lookup of this server is unavailable.
    const server = await startTestServer();
    let browser: Browser | undefined;
    const shots = await screenshotDir("unavailable");
    try {
      browser = await launchBrowser();
      for (const pkg of ["six", "left-pad"]) {
        const res = await fetch(`${server.url}/api/v1/evaluate?package=${pkg}&project=web`);
        await res.body?.cancel();
      }
      const { page, recorder, context } = await openRecordedPage(browser);
      const text = async (selector: string) => (await page.locator(selector).innerText()).trim();
      await page.goto(`${server.url}/`);
      includes(await text("[data-testid=data-availability]"), "unavailable for 2 of 2 evaluations");
      includes(await text("#top-denied"), "so this is not an all-clear");
      await page.screenshot({ path: join(shots, "overview-unavailable.png"), fullPage: true });
      for (const path of ["/dashboard/security", "/dashboard/legal"]) {
        await page.goto(`${server.url}${path}`);
        includes(await text("[data-testid=data-banner]"), "2 of 2 evaluations");
        const main = await text("main");
        assert.ok(!main.includes("No CVE denials in this window."), path);
        assert.ok(!main.includes("Every evaluated package"), path);
        // Bold figures carry their own caveat, and the strip does not call OSV or PyPI healthy.
        includes(
          await text("[data-testid=total-denials-caveat]"),
          "2 of 2 evaluations not checked",
        );
        const strip = await text("[data-testid=status-strip]");
        assert.ok(!/answering/.test(strip), strip);
        await page.screenshot({
          path: join(shots, `${path.split("/").at(-1)}-unavailable.png`),
          fullPage: true,
        });
      }
      assert.deepEqual(recorder.offLoopback, []);
      assert.deepEqual(recorder.errors, []);
      await context.close();
    } finally {
      await browser?.close();
      await server.close();
    }
  },
);
