/**
 * Browser tests of the registry workshop against a real server: triage a
 * pending row into a proposal that goes live (local_file) or is only logged
 * (log_only), import YAML through parse-yaml, export YAML that validates.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import type { Page } from "playwright-core";
import { validateRegistry } from "../../src/registry/schema.ts";
import type { Browser } from "playwright-core";
import { launchBrowser, openRecordedPage } from "../helpers/browser.ts";
import { evaluate, screenshotDir, startDashboardServer } from "./_seed.ts";

const options = { sanitizeOps: false, sanitizeResources: false };

function includes(text: string, part: string) {
  assert.ok(text.includes(part), `expected ${JSON.stringify(part)} in:\n${text}`);
}

async function openWorkshop(page: Page, url: string) {
  await page.goto(`${url}/dashboard/registry`);
  await page.waitForSelector("body[data-ready=true]");
}

async function downloadText(page: Page, selector: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  assert.equal(download.suggestedFilename(), "registry.yaml");
  const path = await download.path();
  return await Deno.readTextFile(path);
}

Deno.test(
  "the workshop triages, imports and exports with the local_file proposer",
  options,
  async (t) => {
    const server = await startDashboardServer({ REGISTRY_PROPOSER: "local_file" });
    let browser: Browser | undefined;
    const shots = await screenshotDir("workshop");
    try {
      browser = await launchBrowser();
      await evaluate(server, "six", { project: "web" });
      await evaluate(server, "mysterylib", { project: "api" });
      const { page, recorder, context } = await openRecordedPage(browser);
      const text = async (selector: string) => (await page.locator(selector).innerText()).trim();

      await t.step(
        "the page loads the live registry, the pending queue and the proposer",
        async () => {
          await openWorkshop(page, server.url);
          includes(await text("[data-testid=proposer-note]"), "local_file");
          const registry = await (await fetch(`${server.url}/api/v1/registry`)).json();
          assert.equal(
            await page.locator("[data-testid=registry-table] tbody tr").count(),
            registry.packages.length,
          );
          includes(await text("tr[data-package=pycrypto]"), "Banned");
          includes(await text("[data-testid=pending-table]"), "six");
          includes(await text("[data-testid=pending-table]"), "mysterylib");
          await page.screenshot({ path: join(shots, "registry.png"), fullPage: true });
        },
      );

      await t.step(
        "Approve on a pending row applies the rule and live evaluations see it",
        async () => {
          const before = await text("[data-testid=side-registry-version]");
          await page.click("button[aria-label='Approve six']");
          // The confirmation appears in the pending card, beside the button that caused it.
          await page.waitForSelector("[data-testid=pending-result].ok");
          const confirmation = await text("[data-testid=pending-result]");
          includes(confirmation, "Applied");
          assert.ok(!confirmation.includes(server.dir), `a server path in: ${confirmation}`);
          assert.ok(!/\/tmp\/|registry\.yaml/.test(confirmation), confirmation);
          assert.ok(await page.locator("[data-testid=pending-result]").isVisible());
          const pendingCard = await page.locator("#pending").boundingBox();
          const result = await page.locator("[data-testid=pending-result]").boundingBox();
          assert.ok(pendingCard && result && result.y >= pendingCard.y, "inside the pending card");
          assert.ok(
            result.y + result.height <= pendingCard.y + pendingCard.height,
            "inside the pending card",
          );
          includes(await text("[data-testid=registry-table] tr[data-package=six]"), "Approved");
          assert.equal(
            await page.locator("[data-testid=pending-body] tr[data-package=six]").count(),
            0,
          );
          const live = await (await fetch(`${server.url}/api/v1/registry`)).json();
          assert.equal(await text("[data-testid=side-registry-version]"), live.version);
          assert.equal(
            await text("[data-testid=side-package-count]"),
            String(live.packages.length),
          );
          // The example registry authors its version label: an edit keeps it, and the
          // confirmation says so rather than calling the rule unchanged.
          assert.equal(live.version, before);
          assert.equal(await text("[data-testid=new-registry-version]"), live.version);
          includes(confirmation, "authored version label is kept");
          assert.ok(!confirmation.includes("unchanged"), confirmation);
          await page.locator("#pending").screenshot({ path: join(shots, "registry-approved.png") });
          includes(
            await text("[data-testid=registry-summary]"),
            `${live.packages.length} packages`,
          );
          assert.ok(before);
          const evaluation = await evaluate(server, "six");
          assert.equal(evaluation.verdict, "ALLOWED");
          assert.equal(evaluation.registry_status, "approved");
        },
      );

      await t.step("Ban… fills the form, and proposing it bans the package", async () => {
        await page.click("button[aria-label='Ban… mysterylib']");
        assert.equal(await page.inputValue("#rule-name"), "mysterylib");
        assert.equal(await page.inputValue("#rule-status"), "banned");
        await page.fill("#rule-reason", "license unknown, unmaintained");
        await page.fill("#rule-replacement", "six");
        await page.click("#rule-form button[type=submit]");
        await page.waitForSelector("[data-testid=registry-table] tr[data-package=mysterylib]");
        includes(await text("[data-testid=registry-table] tr[data-package=mysterylib]"), "Banned");
        const evaluation = await evaluate(server, "mysterylib");
        assert.equal(evaluation.verdict, "DENIED");
        assert.equal(evaluation.denial_category, "DENIAL_BANNED");
        await page.locator("#propose").screenshot({ path: join(shots, "registry-proposal.png") });
      });

      await t.step("an invalid rule shows the server's path-qualified errors", async () => {
        await page.fill("#rule-name", "ok-name");
        await page.selectOption("#rule-status", "version-constrained");
        await page.fill("#rule-reason", "");
        await page.fill("#rule-replacement", "");
        await page.fill("#rule-min", "not a version");
        await page.click("#rule-form button[type=submit]");
        await page.waitForSelector("[data-testid=proposal-result].error");
        includes(await text("[data-testid=proposal-result]"), "min_version");
        await page.fill("#rule-min", "");
      });

      await t.step("importing an invalid document lists path-qualified errors", async () => {
        await page.fill("#import-text", "packages:\n  - name: foo\n    status: nope\n");
        await page.click("#import-form button[type=submit]");
        await page.waitForSelector("[data-testid=import-result].error");
        includes(await text("[data-testid=import-result]"), "packages[0].status");
        includes(await text("[data-testid=import-result]"), "(line 3, column 13)");
        await page.fill("#import-text", "packages: [\n");
        await page.click("#import-form button[type=submit]");
        await page.locator("[data-testid=import-result].error", { hasText: "YAML syntax error" })
          .waitFor();
        includes(await text("[data-testid=import-result]"), "line 2, column 1");
        await page.locator("#import").screenshot({ path: join(shots, "registry-yaml-error.png") });
      });

      await t.step("importing a valid file shows what it would change", async () => {
        const yaml =
          "packages:\n  - name: requests\n    status: preferred\n  - name: New_Pkg\n    status: approved\n";
        const file = join(server.dir, "import.yaml");
        await Deno.writeTextFile(file, yaml);
        await page.setInputFiles("#import-file", file);
        await page.waitForSelector("[data-testid=import-result].ok");
        const result = await text("[data-testid=import-result]");
        includes(result, "Valid registry document");
        includes(await text("[data-testid=import-diff]"), "new-pkg");
        assert.equal(await page.inputValue("#import-text"), yaml);
        await page.locator("#import").screenshot({ path: join(shots, "registry-import.png") });
      });

      await t.step("the export downloads YAML that validates and holds the new rules", async () => {
        const yaml = await downloadText(page, "#export-link");
        const parsed = validateRegistry(parse(yaml));
        assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
        const rules = new Map(parsed.value.packages.map((r) => [r.name, r.status]));
        assert.equal(rules.get("six"), "approved");
        assert.equal(rules.get("mysterylib"), "banned");
        const response = await fetch(`${server.url}/api/v1/registry/parse-yaml`, {
          method: "POST",
          headers: { "content-type": "text/yaml" },
          body: yaml,
        });
        assert.equal(response.status, 200, await response.clone().text());
        await response.body?.cancel();
        await page.screenshot({ path: join(shots, "registry-after.png"), fullPage: true });
      });

      await t.step("a package page's button opens the workshop form for that package", async () => {
        await page.goto(`${server.url}/dashboard/package/nose`);
        await Promise.all([
          page.waitForURL(/dashboard\/registry\?package=nose/),
          page.click("[data-testid=propose-rule]"),
        ]);
        await page.waitForSelector("body[data-ready=true]");
        assert.equal(await page.inputValue("#rule-name"), "nose");
        assert.equal(await page.inputValue("#rule-status"), "deprecated");
        assert.equal(await page.inputValue("#rule-replacement"), "pytest");
        await page.selectOption("#rule-status", "banned");
        await page.click("#rule-form button[type=submit]");
        await page.waitForSelector("[data-testid=proposal-result].ok");
        includes(await text("[data-testid=proposal-result]"), "nose → banned");
        assert.equal((await evaluate(server, "nose")).denial_category, "DENIAL_BANNED");
        await page.goto(`${server.url}/dashboard/package/nose`);
        includes(await text("[data-testid=package-rule]"), "Banned");
        await page.screenshot({ path: join(shots, "package-after-triage.png"), fullPage: true });
      });

      await t.step("the registry table sorts by a column", async () => {
        await openWorkshop(page, server.url);
        await page.click("[data-testid=registry-table] th button[aria-label='Sort by Status']");
        const statuses = await page.locator("[data-testid=registry-table] tbody td:nth-child(2)")
          .allInnerTexts();
        assert.deepEqual(statuses, [...statuses].sort());
      });

      await t.step("no request left loopback and the page raised no script errors", () => {
        assert.deepEqual(recorder.offLoopback, []);
        const origin = new URL(server.url).origin;
        for (const url of recorder.requests) assert.ok(url.startsWith(origin), url);
        const errors = recorder.errors.filter((e) => !/status of 4\d\d/.test(e));
        assert.deepEqual(errors, []);
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
  "with log_only the workshop says the rule is only logged and offers the export",
  options,
  async () => {
    const server = await startDashboardServer({ REGISTRY_PROPOSER: "log_only" });
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      await evaluate(server, "six", { project: "web" });
      const { page, recorder, context } = await openRecordedPage(browser);
      await openWorkshop(page, server.url);
      assert.ok(
        (await page.locator("[data-testid=proposer-note]").innerText()).includes("only logged"),
      );
      await page.click("button[aria-label='Prefer six']");
      await page.waitForSelector("[data-testid=pending-result].warn");
      const result = await page.locator("[data-testid=pending-result]").innerText();
      includes(result, "logged");
      includes(result, "only logged");
      // The live registry is unchanged: the rule is not live.
      assert.equal(
        await page.locator("[data-testid=registry-table] tr[data-package=six]").count(),
        0,
      );
      assert.equal((await evaluate(server, "six")).verdict, "PROVISIONALLY_ALLOWED");
      assert.ok(await page.locator("#export-proposals").isVisible());
      await page.screenshot({
        path: join(await screenshotDir("workshop-log-only"), "registry-log-only.png"),
      });
      const yaml = await downloadText(page, "#export-with-proposals");
      const parsed = validateRegistry(parse(yaml));
      assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
      assert.equal(parsed.value.packages.find((r) => r.name === "six")?.status, "preferred");
      assert.deepEqual(recorder.offLoopback, []);
      await context.close();
    } finally {
      await browser?.close();
      await server.close();
    }
  },
);
