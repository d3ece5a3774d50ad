/**
 * Drives Debian's Chromium with playwright-core for the dashboard browser
 * tests. The browser runs headless with its background networking off; every
 * request a page makes is recorded, and any request that leaves loopback is
 * aborted and reported, so tests can assert that pages work offline.
 *
 * A missing Chromium is a test failure with the install line, never a skip.
 *
 * @module
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Where Chromium is expected; override with `CHROMIUM_PATH`. */
export function chromiumPath(): string {
  return Deno.env.get("CHROMIUM_PATH") || "/usr/bin/chromium";
}

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-quic",
  "--metrics-recording-only",
];

/** Launches headless Chromium; throws a clear error when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  const path = chromiumPath();
  try {
    await Deno.stat(path);
  } catch {
    throw new Error(
      `Chromium not found at ${path}. The browser tests need it: ` +
        "run `apt-get update && apt-get install -y chromium` (Debian), or set CHROMIUM_PATH.",
    );
  }
  return await chromium.launch({
    executablePath: path,
    args: ARGS,
    headless: true,
    timeout: 60_000,
  });
}

/** Everything a page did that a test may want to assert on. */
export interface PageRecorder {
  /** Every URL requested by the pages of the context. */
  requests: string[];
  /** Requests to anything but loopback (aborted). */
  offLoopback: string[];
  /** Uncaught page errors and console errors (CSP violations show up here). */
  errors: string[];
}

function isLoopback(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === "data:" || parsed.protocol === "blob:" || parsed.protocol === "about:") {
    return true;
  }
  return parsed.hostname === "127.0.0.1" || parsed.hostname === "[::1]" ||
    parsed.hostname === "localhost";
}

/** A browser context with recording on, and one page in it. */
export interface RecordedPage {
  context: BrowserContext;
  page: Page;
  recorder: PageRecorder;
}

/** Opens a fresh context (downloads accepted) with request recording. */
export async function openRecordedPage(browser: Browser): Promise<RecordedPage> {
  const context = await browser.newContext({
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  const recorder: PageRecorder = { requests: [], offLoopback: [], errors: [] };
  await context.route("**/*", (route) => {
    const url = route.request().url();
    recorder.requests.push(url);
    if (!isLoopback(url)) {
      recorder.offLoopback.push(url);
      return route.abort("blockedbyclient");
    }
    return route.continue();
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => recorder.errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") recorder.errors.push(`console: ${message.text()}`);
  });
  page.setDefaultTimeout(15_000);
  return { context, page, recorder };
}
